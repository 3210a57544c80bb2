#!/usr/bin/env python3
"""Reads what DatasetFormats wrote with the readers dataset users run, and prints JSON for the Swift tests.

    read_shard.py webdataset TAR            webdataset.WebDataset(...).decode("pil"), and tarfile's member list
    read_shard.py parquet FILE              pyarrow, fastparquet and duckdb: schema, row groups, every value
    read_shard.py hf-webdataset TAR CACHE   datasets.load_dataset("webdataset", ...) offline
    read_shard.py hf-parquet FILE CACHE     datasets.load_dataset("parquet", ...) offline
    read_shard.py parquet-count FILE        the three readers' row counts, row groups, and first and last rows
    read_shard.py tfrecord FILE DESC_JSON   every frame's CRCs checked with the tfrecord package's masked_crc (crc32c),
                                            then tfrecord.reader.tfrecord_loader with a description {"name": "byte"|"int"|"float"}
    read_shard.py reference-tar OUT SPEC    webdataset.TarWriter's bytes for SPEC ({"mtime", "samples": [{"__key__", ext: text|{"hex"}}]})
    read_shard.py img2dataset-shard FORMAT OUT SPEC
                                            img2dataset 1.47's own sample writer (writer.py) for FORMAT (files, webdataset,
                                            parquet) writes SPEC's rows into OUT, as its downloader would call it
    read_shard.py tar-members TAR           [name, size, crc32, mode, uname, gname] of each member, in order
    read_shard.py json-dumps SPEC           json.dumps of SPEC's "object" (a list of [key, value] pairs), indent=4;
                                            a value {"float": "1e-05"} is that float, {"object": [...]} a nested dict

Binary values come back as {"len": n, "crc32": zlib.crc32}. A missing module exits 3 naming its pip package.
"""
import importlib
import json
import os
import sys
import struct
import warnings
import zlib

warnings.filterwarnings("ignore")
PIP = {"webdataset": "webdataset", "pyarrow": "pyarrow", "fastparquet": "fastparquet", "duckdb": "duckdb",
       "datasets": "datasets", "tfrecord": "tfrecord", "PIL": "pillow", "img2dataset": "img2dataset==1.47.0"}


def need(module):
    try:
        return importlib.import_module(module)
    except ImportError as err:
        print(f"missing Python module {module}: pip install {PIP.get(module.split('.')[0], module)} ({err})")
        sys.exit(3)


def plain(value):
    """A JSON-able form of a reader's value: bytes as length and digest, floats kept, numpy scalars unwrapped."""
    if value is None:
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        return {"len": len(data), "crc32": zlib.crc32(data)}
    if hasattr(value, "item") and not isinstance(value, (list, dict, str)):
        return plain(value.item())
    if isinstance(value, float) and value != value:
        return "NaN"
    return value


def webdataset(path):
    wds = need("webdataset")
    need("PIL")
    import tarfile
    members = [m.name for m in tarfile.open(path)]
    samples = []
    for sample in wds.WebDataset(path, shardshuffle=False, empty_check=False).decode("pil"):
        entry = {"key": sample["__key__"], "extensions": sorted(k for k in sample if not k.startswith("__"))}
        for ext, value in sample.items():
            if ext in ("jpg", "png", "webp", "avif"):
                entry["image_size"] = list(value.size)
            elif ext == "json":
                entry["json"] = value
            elif ext == "txt":
                entry["txt"] = value
        samples.append(entry)
    return {"members": members, "samples": samples}


def parquet(path):
    pq = need("pyarrow.parquet")
    fastparquet = need("fastparquet")
    duckdb = need("duckdb")
    meta = pq.ParquetFile(path)
    table = pq.read_table(path)
    schema = [[field.name, str(field.type)] for field in table.schema]
    columns = table.schema.names
    rows = [[plain(v) for v in row.values()] for row in table.to_pylist()]
    fp = fastparquet.ParquetFile(path)
    frame = fp.to_pandas()
    fp_rows = [[plain(None if _isnull(v) else v) for v in record] for record in frame[columns].itertuples(index=False)]
    con = duckdb.connect()
    duck_schema = [[name, kind] for name, kind, *_ in con.execute(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()]
    duck_rows = [[plain(v) for v in record] for record in con.execute(f"SELECT * FROM read_parquet('{path}')").fetchall()]
    groups = [meta.metadata.row_group(i).num_rows for i in range(meta.num_row_groups)]
    codecs = sorted({meta.metadata.row_group(i).column(j).compression
                     for i in range(meta.num_row_groups) for j in range(meta.metadata.num_columns)})
    logical = [str(meta.schema.column(i).logical_type) for i in range(meta.metadata.num_columns)]
    return {"schema": schema, "logical_types": logical, "row_groups": groups, "codecs": codecs, "rows": rows,
            "fastparquet_rows": fp_rows, "duckdb_rows": duck_rows, "duckdb_schema": duck_schema,
            "created_by": meta.metadata.created_by}


def _isnull(value):
    try:
        import pandas
        return value is None or (not isinstance(value, (bytes, str, list)) and bool(pandas.isna(value)))
    except (TypeError, ValueError):
        return False


def hf(builder, path, cache):
    os.environ["HF_DATASETS_OFFLINE"] = "1"
    os.environ["HF_HUB_OFFLINE"] = "1"
    datasets = need("datasets")
    datasets.disable_progress_bars()
    dataset = datasets.load_dataset(builder, data_files={"train": [path]}, split="train", cache_dir=cache)
    rows = []
    for row in dataset:
        out = {}
        for name, value in row.items():
            if hasattr(value, "size") and hasattr(value, "mode"):
                out[name] = {"image_size": list(value.size)}
            else:
                out[name] = plain(value)
        rows.append(out)
    return {"features": {name: str(feature) for name, feature in dataset.features.items()}, "rows": rows}


def tfrecord_frames(path):
    """Checks each record's framing as TensorFlow's reader does (tfrecord's own loader skips the CRCs)."""
    writer = need("tfrecord.writer")
    count = 0
    with open(path, "rb") as stream:
        while True:
            length_bytes = stream.read(8)
            if not length_bytes:
                return count
            length_crc = stream.read(4)
            if writer.TFRecordWriter.masked_crc(length_bytes) != length_crc:
                raise SystemExit(f"record {count}: the length's masked CRC-32C does not match")
            (length,) = struct.unpack("<Q", length_bytes)
            data = stream.read(length)
            if len(data) != length or writer.TFRecordWriter.masked_crc(data) != stream.read(4):
                raise SystemExit(f"record {count}: the data's masked CRC-32C does not match (or the file is short)")
            count += 1


def parquet_count(path):
    pq = need("pyarrow.parquet")
    fastparquet = need("fastparquet")
    duckdb = need("duckdb")
    table = pq.read_table(path)
    rows = table.num_rows
    frame = fastparquet.ParquetFile(path).to_pandas()
    con = duckdb.connect()
    duck = con.execute(f"SELECT count(*) FROM read_parquet('{path}')").fetchone()[0]
    keys = con.execute(f"SELECT count(DISTINCT key) FROM read_parquet('{path}')").fetchone()[0] if "key" in table.schema.names else None
    meta = pq.ParquetFile(path).metadata
    first = [plain(v) for v in table.slice(0, 1).to_pylist()[0].values()] if rows else None
    last = [plain(v) for v in table.slice(rows - 1, 1).to_pylist()[0].values()] if rows else None
    fp_last = [plain(None if _isnull(v) else v) for v in frame.iloc[-1].tolist()] if rows else None
    return {"pyarrow": rows, "fastparquet": len(frame), "duckdb": duck, "distinct_keys": keys,
            "row_groups": meta.num_row_groups, "largest_row_group": max((meta.row_group(i).num_rows for i in range(meta.num_row_groups)), default=0),
            "first": first, "last": last, "fastparquet_last": fp_last}


def tfrecord_read(path, description):
    frames = tfrecord_frames(path)
    reader = need("tfrecord.reader")
    records = []
    for record in reader.tfrecord_loader(path, None, description):
        out = {}
        for name, value in record.items():
            kind = description[name]
            if kind == "byte":
                data = value.tobytes() if hasattr(value, "tobytes") else bytes(value)
                out[name] = plain(data)
                try:
                    out[name]["text"] = data.decode("utf-8")
                except UnicodeDecodeError:
                    pass
            else:
                out[name] = [plain(v) for v in (value.tolist() if hasattr(value, "tolist") else list(value))]
        records.append(out)
    return {"frames": frames, "records": records}


def reference_tar(out, spec):
    wds = need("webdataset")
    with open(out, "wb") as stream:
        writer = wds.TarWriter(stream, mtime=spec["mtime"], encoder=False)
        for sample in spec["samples"]:
            obj = {}
            for name, value in sample.items():
                obj[name] = bytes.fromhex(value["hex"]) if isinstance(value, dict) else value.encode("utf-8")
            obj["__key__"] = sample["__key__"]
            writer.write(obj)
        writer.close()
    return {"written": out}


def img2dataset_shard(format, out, spec):
    pa = need("pyarrow")
    need("img2dataset")
    from img2dataset import writer as img_writer
    types = {"string": pa.string(), "int32": pa.int32(), "int64": pa.int64(), "double": pa.float64(), "bool": pa.bool_()}
    schema = pa.schema([pa.field(name, types[kind]) for name, kind in spec["schema"]])
    classes = {"files": img_writer.FilesSampleWriter, "webdataset": img_writer.WebDatasetSampleWriter,
               "parquet": img_writer.ParquetSampleWriter}
    writer = classes[format](0, out, spec["save_caption"], 5, schema, spec["encode_format"])
    for sample in spec["samples"]:
        image = bytes.fromhex(sample["image_hex"]) if sample["image_hex"] is not None else None
        writer.write(image, sample["key"], sample["caption"], pythonic(sample["meta"]))
    writer.close()
    return {"files": sorted(os.listdir(out))}


def tar_members(path):
    import tarfile
    members = []
    with tarfile.open(path) as archive:
        for member in archive:
            data = archive.extractfile(member).read()
            members.append([member.name, member.size, zlib.crc32(data), member.mode, member.uname, member.gname])
    return {"members": members}


def pythonic(pairs):
    """[[key, value]] to a dict; {"float": text} to float(text) (JSON itself cannot say 1.0 is a float)."""
    def value(v):
        if isinstance(v, dict) and "float" in v:
            return float(v["float"])
        if isinstance(v, dict) and "object" in v:
            return pythonic(v["object"])
        return v
    return {k: value(v) for k, v in pairs}


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "webdataset":
        result = webdataset(args[0])
    elif command == "parquet":
        result = parquet(args[0])
    elif command == "hf-webdataset":
        result = hf("webdataset", args[0], args[1])
    elif command == "hf-parquet":
        result = hf("parquet", args[0], args[1])
    elif command == "parquet-count":
        result = parquet_count(args[0])
    elif command == "tfrecord":
        result = tfrecord_read(args[0], json.loads(args[1]))
    elif command == "reference-tar":
        result = reference_tar(args[0], json.load(open(args[1])))
    elif command == "img2dataset-shard":
        result = img2dataset_shard(args[0], args[1], json.load(open(args[2])))
    elif command == "tar-members":
        result = tar_members(args[0])
    elif command == "json-dumps":
        result = {"text": json.dumps(pythonic(json.load(open(args[0]))["object"]), indent=4)}
    else:
        raise SystemExit(f"unknown command {command}")
    print(json.dumps(result, ensure_ascii=True, default=str))


if __name__ == "__main__":
    main()
