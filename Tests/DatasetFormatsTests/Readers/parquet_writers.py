"""Parquet files from the writers URL lists come from, beyond parquet_inputs.py's, for ParquetWriterKindsTests.

usage:
  parquet_writers.py pyarrow FOLDER   writes, with pyarrow, a file whose dictionary pages overflow and fall back
                                      to PLAIN mid-chunk (one large row group, dictionary_pagesize_limit 4 KiB),
                                      and one file per codec or encoding the Swift reader refuses (LZ4, LZ4_RAW,
                                      BROTLI, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY,
                                      BYTE_STREAM_SPLIT); prints {file: {"columns": {...}, "pages": {column:
                                      [page encodings]}, "codec": ...}} as one JSON line
  parquet_writers.py read FILE...     prints what pyarrow reads from each file (bytes as hex, floats as repr())
  parquet_writers.py spark FOLDER     writes Tests/DatasetFormatsTests/Fixtures/parquet-spark/ with pyspark
                                      (Spark's own Parquet writer, parquet-mr): how the committed fixtures were made

Page encodings are read from the page headers themselves (a Thrift compact reader below, independent of the
Swift one), so the fallback is seen to happen, not assumed.
"""
import json, os, struct, sys

ENCODINGS = {0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED", 5: "DELTA_BINARY_PACKED",
             6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY", 8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT"}


class Compact:
    """Just enough of Thrift's compact protocol to read a PageHeader."""

    def __init__(self, data, pos):
        self.data, self.pos = data, pos

    def varint(self):
        shift = result = 0
        while True:
            b = self.data[self.pos]; self.pos += 1
            result |= (b & 0x7F) << shift
            if not b & 0x80: return result
            shift += 7

    def zigzag(self):
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def skip(self, kind):
        if kind in (1, 2): return
        if kind == 3: self.pos += 1
        elif kind in (4, 5, 6): self.varint()
        elif kind == 7: self.pos += 8
        elif kind == 8:
            length = self.varint()  # read before pos: `self.pos += self.varint()` would lose the varint's bytes
            self.pos += length
        elif kind in (9, 10):
            head = self.data[self.pos]; self.pos += 1
            count = head >> 4 if head >> 4 != 15 else self.varint()
            for _ in range(count): self.skip(head & 0x0F)
        elif kind == 12: self.struct(lambda f, k: self.skip(k))
        else: raise ValueError(f"thrift type {kind}")

    def struct(self, field):
        last = 0
        while True:
            head = self.data[self.pos]; self.pos += 1
            if head == 0: return
            delta, kind = head >> 4, head & 0x0F
            last = last + delta if delta else self.zigzag()
            field(last, kind)


def page_encodings(path, column_index):
    """The encoding of each page of a column's chunks (every row group, in order), from the page headers."""
    import pyarrow.parquet as pq
    meta = pq.ParquetFile(path).metadata
    data = open(path, "rb").read()
    pages = []
    for group in range(meta.num_row_groups):
        chunk = meta.row_group(group).column(column_index)
        start = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
        pos, end = start, start + chunk.total_compressed_size
        while pos < end:
            r = Compact(data, pos)
            header = {"type": None, "size": 0, "encoding": None}
            def sub(f, k):
                if k == 5 and f in (1, 2, 3, 4):
                    v = r.zigzag()
                    # DataPageHeader / DictionaryPageHeader: the encoding is field 2; DataPageHeaderV2: field 4.
                    if (header["type"] in (0, 2) and f == 2) or (header["type"] == 3 and f == 4): header["encoding"] = v
                else: r.skip(k)
            def top(f, k):
                if f == 1: header["type"] = r.zigzag()
                elif f == 3: header["size"] = r.zigzag()
                elif f in (5, 7, 8) and k == 12: r.struct(sub)
                else: r.skip(k)
            r.struct(top)
            kind = {0: "data", 2: "dictionary", 3: "data_v2"}.get(header["type"], str(header["type"]))
            pages.append(f"{kind}:{ENCODINGS.get(header['encoding'], header['encoding'])}")
            pos = r.pos + header["size"]
    return pages


def plain(v):
    if v is None: return None
    if isinstance(v, bytes): return v.hex()
    if isinstance(v, float): return repr(v)
    if isinstance(v, list): return [plain(x) for x in v]
    return v


def read(path):
    import pyarrow.parquet as pq
    t = pq.read_table(path)
    meta = pq.ParquetFile(path).metadata
    return {"row_groups": [meta.row_group(i).num_rows for i in range(meta.num_row_groups)],
            "columns": {c: [plain(v) for v in t.column(c).to_pylist()] for c in t.column_names}}


def write_pyarrow(folder):
    import pyarrow as pa, pyarrow.parquet as pq
    os.makedirs(folder, exist_ok=True)
    n = 30000
    table = pa.table({
        # Distinct long URLs: the dictionary outgrows 4 KiB within the first pages and the writer goes PLAIN.
        "URL": pa.array([None if i % 97 == 5 else f"https://img{i % 50}.example.com/p/{i * 7919 % 100003}/{'x' * (i % 40)}.jpg" for i in range(n)]),
        "TEXT": pa.array([None if i % 11 == 3 else f"caption {i % 700}" for i in range(n)]),
        "WIDTH": pa.array([None if i % 13 == 0 else 100 + i for i in range(n)], pa.int32()),
        "similarity": pa.array([i / 997.0 for i in range(n)], pa.float64()),
    })
    out = {}
    name = "pyarrow-dictionary-fallback.parquet"
    pq.write_table(table, os.path.join(folder, name), row_group_size=n, dictionary_pagesize_limit=4096, data_page_size=8192,
                   compression="snappy")
    out[name] = {"pages": {c: page_encodings(os.path.join(folder, name), i) for i, c in enumerate(table.column_names)}}
    small = table.slice(0, 200).append_column("punsafe", pa.array([i / 64.0 for i in range(200)], pa.float32()))
    refused = {"lz4-hadoop.parquet": dict(compression="lz4"), "brotli.parquet": dict(compression="brotli"),
               "delta-binary-packed.parquet": dict(use_dictionary=False, column_encoding={"WIDTH": "DELTA_BINARY_PACKED"}),
               "delta-length-byte-array.parquet": dict(use_dictionary=False, column_encoding={"URL": "DELTA_LENGTH_BYTE_ARRAY"}),
               "delta-byte-array.parquet": dict(use_dictionary=False, column_encoding={"URL": "DELTA_BYTE_ARRAY"}),
               "byte-stream-split.parquet": dict(use_dictionary=False, column_encoding={"punsafe": "BYTE_STREAM_SPLIT"})}
    for name, options in refused.items():
        pq.write_table(small, os.path.join(folder, name), **options)
        meta = pq.ParquetFile(os.path.join(folder, name)).metadata.row_group(0)
        out[name] = {"codec": meta.column(0).compression,
                     "pages": {c: page_encodings(os.path.join(folder, name), i) for i, c in enumerate(small.column_names)}}
    return out


def write_spark(folder):
    from pyspark.sql import SparkSession, types as T
    spark = (SparkSession.builder.master("local[1]").appName("parquet-fixtures")
             .config("spark.sql.session.timeZone", "UTC").config("spark.ui.enabled", "false").getOrCreate())
    schema = T.StructType([T.StructField("URL", T.StringType()), T.StructField("TEXT", T.StringType()),
                           T.StructField("WIDTH", T.IntegerType()), T.StructField("HEIGHT", T.LongType()),
                           T.StructField("similarity", T.DoubleType()), T.StructField("punsafe", T.FloatType()),
                           T.StructField("NSFW", T.StringType()), T.StructField("watermarked", T.BooleanType()),
                           T.StructField("hash", T.BinaryType()), T.StructField("LICENSE", T.StringType()),
                           T.StructField("embedding", T.ArrayType(T.FloatType()))])
    rows = [(None if i % 97 == 5 else f"https://img{i % 50}.example.com/p/{i * 7919 % 100003}.jpg",
             None if i % 11 == 3 else f"a photo of café number {i} " * (1 + i % 3), None if i % 13 == 0 else 100 + i,
             200 + i * 1000003, i / 997.0, None if i % 7 == 0 else i / 64.0, ["UNLIKELY", "UNSURE", "NSFW"][i % 3],
             None if i % 19 == 0 else i % 2 == 0, bytes([i % 256, (i * 7) % 256]),
             # A few values at first (parquet-mr keeps its dictionary after the first page), then distinct ones
             # that overflow it: the chunk's later pages fall back to PLAIN.
             f"cc-{i % 4}" if i < 1000 else f"https://license.example/{i}/{'y' * (i % 30)}", None if i % 23 == 4 else [float(i + j) for j in range(i % 5)])
            for i in range(3000)]
    frame = spark.createDataFrame(rows, schema).coalesce(1)
    # Spark's defaults (snappy, parquet-mr's v1 pages, dictionary with fallback at its page size), and a
    # small dictionary page and row group so the fallback and several row groups happen on these few rows.
    for name, options in {"spark-default": {}, "spark-fallback": {"parquet.dictionary.page.size": "2048", "parquet.block.size": "262144",
                                                                  "parquet.page.size": "4096", "compression": "gzip"},
                          "spark-v2-pages": {"parquet.writer.version": "v2", "parquet.enable.dictionary": "false"}}.items():
        path = os.path.join(folder, name)
        frame.write.mode("overwrite").options(**options).parquet(path)
        part = [f for f in os.listdir(path) if f.endswith(".parquet")][0]
        os.replace(os.path.join(path, part), os.path.join(folder, name + ".parquet"))
        for f in os.listdir(path): os.remove(os.path.join(path, f))
        os.rmdir(path)
    spark.stop()


if __name__ == "__main__":
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        sys.exit("pyarrow is missing: pip install pyarrow (Scripts/bootstrap installs it)")
    command, args = sys.argv[1], sys.argv[2:]
    if command == "pyarrow":
        print(json.dumps(write_pyarrow(args[0])))
    elif command == "read":
        print(json.dumps({os.path.basename(p): dict(read(p), pages={c: page_encodings(p, i) for i, c in enumerate(read(p)["columns"])})
                          for p in args}))
    elif command == "spark":
        write_spark(args[0])
    else:
        sys.exit(__doc__)
