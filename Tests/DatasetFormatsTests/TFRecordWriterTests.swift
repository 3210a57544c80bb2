@testable import DatasetFormats
import Foundation
import Testing

/// The TFRecord layer: CRC-32C against published vectors, the framing checked with the tfrecord package's
/// masked_crc (crc32c's C code), the Example protobuf parsed by its example_pb2 through tfrecord_loader.
@Suite struct TFRecordWriterTests {
    @Test func crc32cPublishedVectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        // RFC 3720 (iSCSI), B.4: 32 bytes of zeros, of ones, ascending.
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32C.checksum([]) == 0)
        // Slicing by eight and the byte loop agree at every length and alignment.
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...bytes.count {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes[..<length] { crc = (crc >> 8) ^ CRC32C.tables[Int((crc ^ UInt32(byte)) & 0xFF)] }
            #expect(CRC32C.checksum(Array(bytes[..<length])) == ~crc)
        }
    }

    @Test func examplesReadByTheTfrecordPackage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = TFRecordWriter(handle: try LocalFolderSink(folder: folder.path).create("a.tfrecord"))
        let photo = SampleData.photo(3)
        for i in 0..<20 {
            try writer.write(TFExample(features: [
                ("key", .bytes([Array(String(format: "%09d", i).utf8)])),
                ("jpg", .bytes([photo])),
                ("txt", .bytes([Array("Café 東京 🌸 \(i)".utf8)])),
                ("empty", .bytes([[]])),
                ("width", .int64s([Int64(i) - 10, .max, .min])),
                ("score", .floats([Float(i) / 4, -1.5])),
            ]))
        }
        try writer.close()
        let description = #"{"key": "byte", "jpg": "byte", "txt": "byte", "empty": "byte", "width": "int", "score": "float"}"#
        let read = try PythonReader.run(["tfrecord", folder.file("a.tfrecord"), description])
        #expect(read["frames"] as? Int == 20)
        let records = try #require(read["records"] as? [[String: Any]])
        #expect(records.count == 20)
        for (i, record) in records.enumerated() {
            #expect((record["key"] as? [String: Any])?["text"] as? String == String(format: "%09d", i))
            #expect((record["txt"] as? [String: Any])?["text"] as? String == "Café 東京 🌸 \(i)")
            #expect((record["empty"] as? [String: Any])?["len"] as? Int == 0)
            #expect(Canonical.text((record["jpg"] as? [String: Any])?.filter { $0.key != "text" })
                    == Canonical.text(Canonical.binary(photo)))
            #expect(Canonical.text(record["width"]) == Canonical.text([i - 10, Int(Int64.max), Int(Int64.min)]))
            #expect(Canonical.text(record["score"]) == Canonical.text([Double(Float(i) / 4), -1.5]))
        }
    }

    @Test func aRecordWithABrokenCRCIsCaught() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = TFRecordWriter(handle: try LocalFolderSink(folder: folder.path).create("b.tfrecord"))
        try writer.write(TFExample(features: [("key", .bytes([Array("000000000".utf8)]))]))
        try writer.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("b.tfrecord")))
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: URL(fileURLWithPath: folder.file("b.tfrecord")))
        withKnownIssue("the reader script must refuse a corrupted data CRC") {
            _ = try PythonReader.run(["tfrecord", folder.file("b.tfrecord"), #"{"key": "byte"}"#])
        }
    }
}
