// libFuzzer target: the Parquet reader (URL lists with captions: `--input-format parquet`), on files a
// server or a user hands us: the footer's Thrift, page headers, levels, dictionaries, every codec.
//
// Invariants: opening is a reader or a ParquetReadError naming the file with a reason; every readable
// column of every row group reads as exactly that row group's row count of values, or an error with a
// reason (never a trap, never a short read); a nested column is never readable; reading is deterministic.
import Glibc
@testable import DatasetFormats

let parquetPath = "/tmp/fuzz-parquet-\(getpid()).parquet"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParquet(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let fd = open(parquetPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    require(fd >= 0, "cannot write \(parquetPath)")
    if size > 0 { require(write(fd, data, size) == size, "short write") }
    close(fd)
    let reader: ParquetFileReader
    do { reader = try ParquetFileReader(path: parquetPath) } catch {
        require(error.path == parquetPath && !error.reason.isEmpty, "open error without file or reason: \(error)")
        return 0
    }
    require(reader.rowGroupRowCounts.allSatisfy { $0 >= 0 }, "negative row count")
    let readable = reader.columns.filter(\.isReadable).map(\.name)
    for column in reader.columns where column.physicalType == "group" { require(!column.isReadable, "nested column readable") }
    for group in reader.rowGroupRowCounts.indices.prefix(16) {
        // Large claimed row counts are refused by the reader when the pages do not hold them.
        for name in readable.prefix(8) {
            let first = Result { try reader.readRowGroup(group, columns: [name]) }
            let second = Result { try reader.readRowGroup(group, columns: [name]) }
            switch (first, second) {
            case (.success(let a), .success(let b)):
                require(a.count == 1 && a[0].count == reader.rowGroupRowCounts[group], "\(name): \(a.first?.count ?? -1) values for \(reader.rowGroupRowCounts[group]) rows")
                require(a == b, "not deterministic")
            case (.failure(let e), .failure):
                let error = e as! ParquetReadError
                require(!error.reason.isEmpty && error.path == parquetPath, "error without a reason")
            default:
                require(false, "one read succeeded and the same read failed")
            }
        }
    }
    return 0
}
