/// A TFRecord file streamed to a `DatasetFileHandle`. Each record is framed as TensorFlow frames it:
/// the length as a little-endian UInt64, the masked CRC-32C of those 8 bytes, the data, the masked
/// CRC-32C of the data (each CRC a little-endian UInt32).
public final class TFRecordWriter {
    public let handle: any DatasetFileHandle
    private var closed = false

    public init(handle: any DatasetFileHandle) { self.handle = handle }

    public func write(_ record: [UInt8]) throws(DatasetFormatError) {
        guard !closed else { throw .closed(file: handle.name) }
        var length: [UInt8] = []
        let count = UInt64(record.count)
        for shift in stride(from: 0, to: 64, by: 8) { length.append(UInt8(truncatingIfNeeded: count >> UInt64(shift))) }
        try handle.write(length + Self.littleEndian(CRC32C.masked(CRC32C.checksum(length))))
        try handle.write(record)
        try handle.write(Self.littleEndian(CRC32C.masked(CRC32C.checksum(record))))
    }

    public func write(_ example: TFExample) throws(DatasetFormatError) { try write(example.serialized()) }

    public func close() throws(DatasetFormatError) {
        guard !closed else { throw .closed(file: handle.name) }
        closed = true
        try handle.close()
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
    }
}
