import Glibc
import Testing
@testable import GallerySystem

/// Each wrapper turns `-1` + `errno` into an error naming the call and the path, and does its call's job.
@Suite struct SyscallTests {
    @Test func aMissingFileIsNamedWithItsCallAndReason() throws {
        let dir = try TestFolder()
        let path = dir.file("missing")
        #expect(throws: SystemError(call: "open", path: path, errno: ENOENT)) { try Syscall.open(path, O_RDONLY) }
        #expect(try Syscall.openIfPresent(path, O_RDONLY) == nil)
        #expect(try Syscall.readAll(path) == nil)
        #expect(SystemError(call: "open", path: path, errno: ENOENT).description == "open \(path): No such file or directory")
    }

    @Test func writesReadsAtOffsetsTruncatesAndSizes() throws {
        let dir = try TestFolder()
        let path = dir.file("f")
        let fd = try Syscall.open(path, O_RDWR | O_CREAT)
        defer { Syscall.closeQuietly(fd) }
        try Syscall.writeAll(fd, Array("hello world".utf8), path: path)
        try Syscall.writeAll(fd, Array("W".utf8), at: 6, path: path)
        #expect(try Syscall.read(fd, count: 5, at: 6, path: path) == Array("World".utf8))
        #expect(try Syscall.read(fd, count: 100, at: 6, path: path) == Array("World".utf8))  // short at the end
        try Syscall.truncate(fd, to: 5, path: path)
        try Syscall.writeAll(fd, Array("!".utf8), path: path)
        try Syscall.fsync(fd, path: path)
        #expect(try Syscall.size(fd, path: path) == 6)
        #expect(try Syscall.readAll(path) == Array("hello!".utf8))
        #expect(Syscall.fileSize(path) == 6)
        #expect(Syscall.fileSize(dir.path) == nil)  // a folder is not a regular file
    }

    @Test func makeDirectoriesMakesMissingParentsAndNamesTheComponentInTheWay() throws {
        let dir = try TestFolder()
        try Syscall.makeDirectories(dir.file("a"))  // the parent exists: one folder
        try Syscall.makeDirectories(dir.file("a/b/c/d"))  // three missing
        try Syscall.makeDirectories(dir.file("a/b/c/d"))  // all there
        try Syscall.makeDirectories(dir.file("a/b/c/d/"))
        #expect(Syscall.status(dir.file("a/b/c/d")).map { $0.st_mode & S_IFMT } == S_IFDIR)
        // A file where a folder must go: the error names that component, as the walk meets it.
        try dir.write([1], to: "f")
        #expect(throws: SystemError(call: "mkdir", path: dir.file("f/x"), errno: ENOTDIR)) {
            try Syscall.makeDirectories(dir.file("f/x/y"))
        }
        #expect(throws: SystemError(call: "mkdir", path: dir.file("f/x"), errno: ENOTDIR)) {
            try Syscall.makeDirectories(dir.file("f/x"))
        }
    }

    @Test func namesRenamesRemovesAndLocks() throws {
        let dir = try TestFolder()
        try dir.write([1], to: "a")
        try Syscall.rename(dir.file("a"), dir.file("b"))
        #expect(try Syscall.names(in: dir.path) == ["b"])
        #expect(Syscall.remove(dir.file("b")))
        #expect(!Syscall.remove(dir.file("b")))
        #expect(throws: SystemError(call: "opendir", path: dir.file("b"), errno: ENOENT)) { try Syscall.names(in: dir.file("b")) }
        let first = try Syscall.open(dir.file("lock"), O_RDWR | O_CREAT)
        let second = try Syscall.open(dir.file("lock"), O_RDWR)
        defer { Syscall.closeQuietly(first); Syscall.closeQuietly(second) }
        try Syscall.lockExclusively(first, path: dir.file("lock"))
        #expect(throws: SystemError(call: "flock", path: dir.file("lock"), errno: EWOULDBLOCK)) {
            try Syscall.lockExclusively(second, path: dir.file("lock"))
        }
    }

    @Test func mapsAFileAndAnEmptyOne() throws {
        let dir = try TestFolder()
        let body = TestFolder.bytes(10_000, seed: 9)
        try dir.write(body, to: "m")
        try dir.write([], to: "e")
        for (name, expected) in [("m", body), ("e", [])] {
            let fd = try Syscall.open(dir.file(name), O_RDONLY)
            let region = try MappedRegion(fd: fd, count: try Syscall.size(fd, path: name), path: name)
            Syscall.closeQuietly(fd)
            #expect(Array(UnsafeRawBufferPointer(start: region.base, count: region.count)) == expected)
        }
    }
}
