"""Writes Parquet files the way the field publishes URL lists (pyarrow and DuckDB), and prints, as one
JSON line, what pyarrow reads back from each: {file: {column: [value, ...]}}, with bytes as hex, floats
as repr() and nulls as None. ParquetReaderTests compares the Swift reader with it.

usage: parquet_inputs.py FOLDER
"""
import json, os, sys

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError:
    sys.exit("pyarrow is missing: pip install pyarrow (Scripts/bootstrap installs it)")

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
rows = 1000
def boxes(i):
    if i % 10 == 1: return None
    if i % 10 == 2: return []
    holes = {3: [None], 4: [[]], 5: [[0.1, None, 0.3, 0.4]]}
    if i % 10 in holes: return holes[i % 10] + [[i / 1000, 0.25, 0.5, 0.75]]
    return [[(i + k) / 2000, k / 10, (i + k) / 1000, 0.5 + k / 10] for k in range(i % 4)]
urls = [None if i % 17 == 5 else f"https://img{i % 20}.example.com/photos/{i}.jpg?w=640&é={i}" for i in range(rows)]
captions = [None if i % 11 == 3 else ("a photo of café number %d " % i) * (1 + i % 3) for i in range(rows)]
table = pa.table({
    "url": pa.array(urls, pa.string()),
    "caption": pa.array(captions, pa.string()),
    "key": pa.array([f"{i:09d}" for i in range(rows)], pa.string()),
    "width": pa.array([None if i % 13 == 0 else 100 + i for i in range(rows)], pa.int32()),
    "height": pa.array([200 + i * 1000003 for i in range(rows)], pa.int64()),
    "similarity": pa.array([None if i % 7 == 0 else i / 997.0 for i in range(rows)], pa.float64()),
    "aesthetic": pa.array([i / 3.0 for i in range(rows)], pa.float32()),
    "nsfw": pa.array([None if i % 19 == 0 else i % 2 == 0 for i in range(rows)], pa.bool_()),
    "blob": pa.array([bytes([i % 256, (i * 7) % 256]) * (i % 4) for i in range(rows)], pa.binary()),
    "license": pa.array(["cc-by" if i % 3 else "cc0" for i in range(rows)], pa.string()),
    # LAION carries an embedding per row: a list column, read only when asked for.
    "embedding": pa.array([None if i % 23 == 4 else [float(i + j) for j in range(i % 9)] for i in range(rows)], pa.list_(pa.float32())),
    # DataComp's face boxes: lists of [x0, y0, x1, y1], with every kind of hole (null row, empty list,
    # null box, empty box, null coordinate) and a few boxes per row.
    "face_bboxes": pa.array([boxes(i) for i in range(rows)], pa.list_(pa.list_(pa.float64()))),
    # A struct: listed, not readable (a clear error when asked for).
    "meta": pa.array([{"a": i, "b": str(i)} for i in range(rows)], pa.struct([("a", pa.int64()), ("b", pa.string())])),
})
required = pa.table({"url": pa.array([f"https://r.example/{i}.png" for i in range(rows)], pa.string())},
                    schema=pa.schema([pa.field("url", pa.string(), nullable=False)]))

written = []
for codec in ["none", "snappy", "gzip", "zstd"]:
    for version in ["1.0", "2.0"]:
        for dictionary in [True, False]:
            name = f"pyarrow-{codec}-v{version[0]}-{'dict' if dictionary else 'plain'}.parquet"
            pq.write_table(table, os.path.join(folder, name), compression=codec, data_page_version=version,
                           use_dictionary=dictionary, row_group_size=128, data_page_size=2048)
            written.append(name)
pq.write_table(required, os.path.join(folder, "pyarrow-required.parquet"), row_group_size=300)
written.append("pyarrow-required.parquet")
pq.write_table(table.slice(0, 0), os.path.join(folder, "pyarrow-empty.parquet"))
written.append("pyarrow-empty.parquet")

try:
    import duckdb
    con = duckdb.connect()
    con.execute(f"COPY (SELECT 'https://d.example/' || i || '.jpg' AS url, CASE WHEN i % 5 = 0 THEN NULL ELSE 'caption ' || i END AS caption, "
                f"i::INTEGER AS n, (i * 2.5)::DOUBLE AS score FROM range(2500) t(i)) TO '{os.path.join(folder, 'duckdb.parquet')}' "
                f"(FORMAT PARQUET, ROW_GROUP_SIZE 1000, COMPRESSION zstd)")
    written.append("duckdb.parquet")
except ImportError:
    sys.exit("duckdb is missing: pip install duckdb (Scripts/bootstrap installs it)")

def plain(v):
    if v is None: return None
    if isinstance(v, bytes): return v.hex()
    if isinstance(v, float): return repr(v)
    if isinstance(v, bool): return v
    if isinstance(v, int): return v
    if isinstance(v, str): return v
    if isinstance(v, list): return [plain(x) for x in v]
    return "skipped"

out = {}
for name in written:
    t = pq.read_table(os.path.join(folder, name))
    meta = pq.ParquetFile(os.path.join(folder, name)).metadata
    out[name] = {"row_groups": [meta.row_group(i).num_rows for i in range(meta.num_row_groups)],
                 "columns": {c: [plain(v) for v in t.column(c).to_pylist()] for c in t.column_names if c != "meta"}}
print(json.dumps(out))
