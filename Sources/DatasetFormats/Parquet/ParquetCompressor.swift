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

    func compress(_ input: [UInt8], file: String) throws(DatasetFormatError) -> [UInt8] {
        switch compression {
        case .none:
            return input
        case .snappy:
            var length = snappy_max_compressed_length(input.count)
            var output = [UInt8](repeating: 0, count: length)
            let status = input.withUnsafeBufferPointer { source in
                output.withUnsafeMutableBufferPointer { target in
                    source.withMemoryRebound(to: CChar.self) { chars in
                        target.withMemoryRebound(to: CChar.self) { out in
                            snappy_compress(chars.baseAddress, chars.count, out.baseAddress, &length)
                        }
                    }
                }
            }
            guard status == SNAPPY_OK else {
                throw .compression(file: file, codec: "snappy", reason: "snappy_status \(status.rawValue)")
            }
            output.removeSubrange(length...)
            return output
        case .zstd:
            var output = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
            let written = input.withUnsafeBytes { source in
                output.withUnsafeMutableBytes { target in
                    ZSTD_compress(target.baseAddress, target.count, source.baseAddress, source.count, 1)
                }
            }
            if ZSTD_isError(written) != 0 {
                throw .compression(file: file, codec: "zstd", reason: String(cString: ZSTD_getErrorName(written)))
            }
            output.removeSubrange(written...)
            return output
        }
    }
}
