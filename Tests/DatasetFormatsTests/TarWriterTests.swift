@testable import DatasetFormats
import Foundation
import Testing

/// The tar layer against webdataset's own TarWriter (Python's tarfile): the same bytes for the same members.
@Suite struct TarWriterTests {
    /// Members of awkward sizes (empty, exactly one block, a real photo), a non-ASCII text, several samples.
    static let members: [(name: String, bytes: [UInt8])] = [
        ("000000000.jpg", SampleData.photo(0)),
        ("000000000.json", Array("{\n    \"caption\": \"Caf\\u00e9\"\n}".utf8)),
        ("000000000.txt", Array("Café au lait — 東京の朝 🌸".utf8)),
        ("000000001.jpg", SampleData.photo(3)),
        ("000000001.json", [UInt8](repeating: UInt8(ascii: "x"), count: 512)),
        ("000000001.txt", []),
    ]

    @Test func sameBytesAsWebdatasetsTarWriter() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try LocalFolderSink(folder: folder.path)
        let tar = TarWriter(handle: try sink.create("ours.tar"), mtime: 1_764_255_600)
        for member in Self.members { try tar.add(member.name, member.bytes) }
        try tar.close()

        var samples: [[String: Any]] = []
        for member in Self.members {
            let key = String(member.name.prefix(9)), ext = String(member.name.dropFirst(10))
            if samples.last?["__key__"] as? String != key { samples.append(["__key__": key]) }
            samples[samples.count - 1][ext] = ["hex": member.bytes.map { String(format: "%02x", $0) }.joined()]
        }
        let spec = ["mtime": 1_764_255_600, "samples": samples] as [String: Any]
        try JSONSerialization.data(withJSONObject: spec).write(to: URL(fileURLWithPath: folder.file("spec.json")))
        _ = try PythonReader.run(["reference-tar", folder.file("theirs.tar"), folder.file("spec.json")])

        let ours = try Data(contentsOf: URL(fileURLWithPath: folder.file("ours.tar")))
        let theirs = try Data(contentsOf: URL(fileURLWithPath: folder.file("theirs.tar")))
        #expect(ours.count == theirs.count)
        #expect(ours.count % 10_240 == 0)
        let firstDifference = zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "first differing byte at \(firstDifference ?? -1) (block \((firstDifference ?? 0) / 512))")
    }

    @Test func emptyArchiveIsOneZeroRecord() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tar = TarWriter(handle: try LocalFolderSink(folder: folder.path).create("empty.tar"))
        try tar.close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("empty.tar")))
        // What webdataset.TarWriter writes for no sample, and what webdataset reads with empty_check=False
        // (by default it refuses any shard without samples, img2dataset's included).
        #expect(bytes.count == 10_240 && bytes.allSatisfy { $0 == 0 })
        let read = try PythonReader.run(["webdataset", folder.file("empty.tar")])
        #expect((read["members"] as? [Any])?.isEmpty == true)
    }

    @Test func longNameIsSplitIntoUstarPrefix() throws {
        let long = String(repeating: "d", count: 80) + "/" + String(repeating: "e", count: 60) + "/000000000.txt"
        let split = try #require(TarHeader.split(long))
        #expect(split.prefix + "/" + split.name == long)
        #expect(split.name.utf8.count <= 100 && split.prefix.utf8.count <= 155)
        #expect(TarHeader.split(String(repeating: "x", count: 101)) == nil)

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tar = TarWriter(handle: try LocalFolderSink(folder: folder.path).create("long.tar"))
        try tar.add(long, text: "hello")
        #expect(throws: DatasetFormatError.memberNameTooLong(file: "long.tar", member: String(repeating: "x", count: 101))) {
            try tar.add(String(repeating: "x", count: 101), text: "no")
        }
        try tar.close()
        let read = try PythonReader.run(["webdataset", folder.file("long.tar")])
        #expect(read["members"] as? [String] == [long])
    }

    @Test func writingAfterCloseFails() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tar = TarWriter(handle: try LocalFolderSink(folder: folder.path).create("a.tar"))
        try tar.close()
        #expect(throws: DatasetFormatError.closed(file: "a.tar")) { try tar.add("x.txt", text: "late") }
    }
}
