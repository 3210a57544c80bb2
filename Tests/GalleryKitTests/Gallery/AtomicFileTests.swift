import Foundation
import GallerySystem
import Testing
@testable import GalleryKit
@testable import PhotoGallery

@Suite struct AtomicFileTests {
    @Test func writesCreatesParentsAndReplaces() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/a/b/c.txt"
        try AtomicFile.write("first", to: path)
        #expect(try folder.read("a/b/c.txt") == "first")
        try AtomicFile.write(Array("second, longer".utf8), to: path, durable: true)
        #expect(try folder.read("a/b/c.txt") == "second, longer")
        // No temporary file is left behind.
        #expect(folder.files() == ["a/b/c.txt"])
    }

    @Test func failureNamesThePathAndLeavesTheOldFile() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try AtomicFile.write("keep", to: folder.path + "/file")
        // A directory in the way of the rename: rename(2) fails with EISDIR.
        try FileManager.default.createDirectory(atPath: folder.path + "/dir", withIntermediateDirectories: true)
        try AtomicFile.write("x", to: folder.path + "/dir/inner")
        #expect(throws: GalleryError.system(call: "rename", path: folder.path + "/dir", errno: EISDIR)) {
            try AtomicFile.write("new", to: folder.path + "/dir")
        }
        #expect(try folder.read("file") == "keep")
        #expect(folder.files() == ["dir/inner", "file"])
    }

    @Test func unwritableDirectoryIsATypedError() {
        #expect {
            try AtomicFile.write("x", to: "/proc/gallerykit-test/x")
        } throws: { error in
            guard case let .system(call, path, _)? = error as? GalleryError else { return false }
            return call == "mkdir" && path.hasPrefix("/proc/gallerykit-test")
        }
    }
}

@Suite struct AtomicFileNameLimitTests {
    @Test func aTargetNameOfExactly255BytesWorks() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let name = GalleryNaming.fileName(id: 1, name: String(repeating: "a", count: 400), extension: "html")
        #expect(name.utf8.count == 255)
        try AtomicFile.write("x", to: folder.path + "/" + name)
        #expect(try folder.read(name) == "x")
    }
}

extension AtomicFileTests {
    static func inode(_ path: String) -> UInt64? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
    }

    /// Unchanged contents are not rewritten (same inode); changed ones are, atomically.
    @Test func writeIfChangedSkipsIdenticalContents() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/sub/page.html"
        #expect(try AtomicFile.writeIfChanged("<p>one</p>", to: path))
        let first = Self.inode(path)
        #expect(try !AtomicFile.writeIfChanged("<p>one</p>", to: path))
        #expect(Self.inode(path) == first)
        #expect(try AtomicFile.writeIfChanged("<p>two</p>", to: path))  // same length, other bytes
        #expect(Self.inode(path) != first)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "<p>two</p>")
        #expect(try AtomicFile.writeIfChanged("<p>three</p>", to: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "<p>three</p>")
    }
}

/// Both ways of making the temporary file: anonymous (`O_TMPFILE` + `linkat`) and the named fallback
/// (`.fg-PID-N.tmp` + `rename`), each creating, replacing and failing cleanly (the temporary file alone:
/// GallerySystemTests' `TemporaryFileTests`).
@Suite struct AtomicFileTemporaryKindTests {
    @Test(arguments: [TemporaryFile.Kind.automatic, .named])
    func createsReplacesAndLeavesNoTemporary(kind: TemporaryFile.Kind) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/thumbs/256/1-a.jpg"
        try AtomicFile.write(Array("first".utf8), to: path, durable: false, kind: kind)
        let first = AtomicFileTests.inode(path)
        // An existing target: linkat refuses it, so the new file is renamed over it (a new inode).
        try AtomicFile.write(Array("second, longer".utf8), to: path, durable: true, kind: kind)
        #expect(try folder.read("thumbs/256/1-a.jpg") == "second, longer")
        #expect(AtomicFileTests.inode(path) != first)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o644 & ~Self.umask)
        #expect(folder.files() == ["thumbs/256/1-a.jpg"])
    }

    @Test(arguments: [TemporaryFile.Kind.automatic, .named])
    func aFailedPublishLeavesTheOldFileAndNoTemporary(kind: TemporaryFile.Kind) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/dir", withIntermediateDirectories: true)
        try AtomicFile.write(Array("x".utf8), to: folder.path + "/dir/inner", durable: false, kind: kind)
        #expect(throws: GalleryError.system(call: "rename", path: folder.path + "/dir", errno: EISDIR)) {
            try AtomicFile.write(Array("new".utf8), to: folder.path + "/dir", durable: false, kind: kind)
        }
        #expect(folder.files() == ["dir/inner"])
    }

    @Test func aMissingDirectoryIsMadeWhenCreationNeedsIt() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try AtomicFile.write("x", to: folder.path + "/new/deeper/file")
        #expect(try folder.read("new/deeper/file") == "x")
    }

    static let umask: mode_t = {
        let old = Glibc.umask(0o022)
        Glibc.umask(old)
        return old
    }()
}
