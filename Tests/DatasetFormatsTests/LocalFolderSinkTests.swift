@testable import DatasetFormats
import Foundation
import Testing

/// The local sink: files appear under their names only when closed, errors name the path and the call.
@Suite struct LocalFolderSinkTests {
    @Test func aFileAppearsOnlyWhenClosed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try LocalFolderSink(folder: folder.file("out/nested"))  // made, with its parents
        try sink.makeFolder("00000")
        let handle = try sink.create("00000/000000000.jpg")
        let big = [UInt8](repeating: 7, count: 600_000)  // past the 256 KiB buffer: written straight through
        try handle.write([1, 2, 3])
        try handle.write(big)
        try handle.write("tail é")
        #expect(!sink.exists("00000/000000000.jpg"))
        #expect(sink.exists("00000/000000000.jpg.part"))
        try handle.close()
        #expect(sink.exists("00000/000000000.jpg") && !sink.exists("00000/000000000.jpg.part"))
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.file("out/nested/00000/000000000.jpg"))))
        #expect(written == [1, 2, 3] + big + Array("tail é".utf8))
        #expect(try sink.list() == ["00000"])
        #expect(throws: DatasetFormatError.closed(file: folder.file("out/nested/00000/000000000.jpg"))) { try handle.write([0]) }
        sink.remove("00000")
        #expect(try sink.list().isEmpty)
    }

    @Test func aDroppedHandleLeavesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try LocalFolderSink(folder: folder.path)
        do {
            let handle = try sink.create("00001.tar")
            try handle.write([UInt8](repeating: 1, count: 1000))
            withExtendedLifetime(handle) { #expect(folder.names() == ["00001.tar.part"]) }
        }
        #expect(folder.names().isEmpty)
    }

    @Test func badNamesAndFailingCallsAreNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try LocalFolderSink(folder: folder.path)
        for name in ["", "/etc/passwd", "../up", "a/../../b", "a//b", "./a"] {
            #expect(throws: DatasetFormatError.invalidName(name)) { _ = try sink.create(name) }
        }
        #expect(throws: DatasetFormatError.io(path: folder.file("missing/x.json.part"), operation: "open", errno: ENOENT)) {
            _ = try sink.create("missing/x.json")
        }
        let error = DatasetFormatError.io(path: "/out/x.json.part", operation: "open", errno: ENOENT)
        #expect(error.description == "/out/x.json.part: open failed: No such file or directory (errno 2)")
        _ = FileManager.default.createFile(atPath: folder.file("plain"), contents: Data())
        #expect(throws: DatasetFormatError.io(path: folder.file("plain/sub"), operation: "mkdir", errno: ENOTDIR)) {
            _ = try LocalFolderSink(folder: folder.file("plain/sub"))
        }
    }
}
