import CSnappy
import CZlib
import CZstd

/// Page bodies back to their bytes: parquet.thrift's codecs UNCOMPRESSED (0), SNAPPY (1), GZIP (2) and
/// ZSTD (6), through Debian's libsnappy, zlib and libzstd. The page header's uncompressed size is the
/// exact size expected: a body that inflates to anything else is a lying page.
enum ParquetDecompressor {
    static func name(of codec: Int32) -> String {
        ["UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"].indices.contains(Int(codec))
            ? ["UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"][Int(codec)] : "codec \(codec)"
    }

    static func isSupported(_ codec: Int32) -> Bool { [0, 1, 2, 6].contains(codec) }

    static func decompress(_ input: UnsafeRawBufferPointer, codec: Int32, size: Int) throws(ParquetFormatProblem) -> [UInt8] {
        if codec == 0 {
            guard input.count == size else { throw ParquetFormatProblem("an uncompressed page of \(input.count) bytes claims \(size)") }
            return Array(input)
        }
        guard size <= 1 << 28 else { throw ParquetFormatProblem("a page claims \(size) bytes uncompressed (over 256 MiB)") }
        var output = [UInt8](repeating: 0, count: size)
        let produced: Int
        switch codec {
        case 1:
            var length = 0
            let chars = input.bindMemory(to: CChar.self)
            guard snappy_uncompressed_length(chars.baseAddress, chars.count, &length) == SNAPPY_OK, length == size else {
                throw ParquetFormatProblem("a SNAPPY page that does not inflate to its \(size) bytes")
            }
            var out = size
            let status = output.withUnsafeMutableBufferPointer { target in
                target.withMemoryRebound(to: CChar.self) { snappy_uncompress(chars.baseAddress, chars.count, $0.baseAddress, &out) }
            }
            guard status == SNAPPY_OK else { throw ParquetFormatProblem("a SNAPPY page that does not inflate (status \(status.rawValue))") }
            produced = out
        case 6:
            let n = output.withUnsafeMutableBytes { ZSTD_decompress($0.baseAddress, $0.count, input.baseAddress, input.count) }
            guard ZSTD_isError(n) == 0 else { throw ParquetFormatProblem("a ZSTD page that does not inflate: \(String(cString: ZSTD_getErrorName(n)))") }
            produced = n
        case 2:
            produced = try inflateGzip(input, into: &output)
        default:
            throw ParquetFormatProblem("pages compressed with \(name(of: codec)), which this reader does not read (UNCOMPRESSED, SNAPPY, GZIP and ZSTD are)")
        }
        guard produced == size else { throw ParquetFormatProblem("a \(name(of: codec)) page inflated to \(produced) bytes, its header says \(size)") }
        return output
    }

    static func inflateGzip(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) throws(ParquetFormatProblem) -> Int {
        var stream = z_stream()
        // 16 + 15: a gzip wrapper (what Parquet's GZIP is), 32 KiB window.
        guard inflateInit2_(&stream, 16 + 15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw ParquetFormatProblem("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        let capacity = output.count
        let status: Int32 = output.withUnsafeMutableBytes { target in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            stream.next_out = target.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(capacity)
            return inflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END else { throw ParquetFormatProblem("a GZIP page that does not inflate to its header's size (zlib \(status))") }
        return capacity - Int(stream.avail_out)
    }
}
