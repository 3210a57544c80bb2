import CSnappy
import CZstd

/// Compresses page bodies with Debian's libsnappy or libzstd (level 1, Arrow's default for ZSTD).
struct ParquetCompressor {
    let compression: ParquetCompression

    /// parquet.thrift's CompressionCodec.
    var codec: Int32 {
        switch compression {
        case .none: return 0
        case .snappy: return 1
        case .zstd: return 6
        }
    }

    /// Compresses `input` into `output` (grown when too small, reused otherwise); returns the length written.
    /// Uncompressed pages are left in `input` and 0 is returned.
    func compress(_ input: [UInt8], into output: inout [UInt8], file: String) throws(DatasetFormatError) -> Int {
        switch compression {
        case .none:
            return 0
        case .snappy:
            let bound = snappy_max_compressed_length(input.count)
            if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
            var length = output.count
            let status = input.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { target in
                    snappy_compress(source.baseAddress?.assumingMemoryBound(to: CChar.self), source.count,
                                    target.baseAddress?.assumingMemoryBound(to: CChar.self), &length)
                }
            }
            guard status == SNAPPY_OK else {
                throw .compression(file: file, codec: "snappy", reason: "snappy_status \(status.rawValue)")
            }
            return length
        case .zstd:
            let bound = ZSTD_compressBound(input.count)
            if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
            let written = input.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { target in
                    ZSTD_compress(target.baseAddress, target.count, source.baseAddress, source.count, 1)
                }
            }
            if ZSTD_isError(written) != 0 {
                throw .compression(file: file, codec: "zstd", reason: String(cString: ZSTD_getErrorName(written)))
            }
            return written
        }
    }
}
