import Glibc
import Testing
@testable import GallerySystem

/// The temporary file alone: anonymous until published, named temporaries never reused, and no folder
/// made by creating one.
@Suite struct TemporaryFileTests {
    /// On Linux file systems that have it (ext4, tmpfs, xfs, btrfs), the file is anonymous until published:
    /// nothing of it is visible in the directory, and discarding it leaves nothing behind.
    @Test func automaticIsAnonymousUntilPublished() throws {
        let folder = try TestFolder()
        var file = try TemporaryFile.create(in: folder.path, kind: .automatic)
        #expect(file.name == nil)
        #expect(folder.names.isEmpty)
        try Syscall.writeAll(file.fd, Array("abc".utf8), path: "test")
        try file.publish(as: folder.file("a"))
        #expect(folder.read("a") == Array("abc".utf8))
        let dropped = try TemporaryFile.create(in: folder.path, kind: .automatic)
        dropped.discard()
        #expect(folder.names == ["a"])
    }

    @Test func namedTemporariesNeverReuseALeftover() throws {
        let folder = try TestFolder()
        let first = try TemporaryFile.create(in: folder.path, kind: .named)
        let second = try TemporaryFile.create(in: folder.path, kind: .named)
        #expect(first.name != nil && second.name != nil && first.name != second.name)
        #expect(folder.names.count == 2 && folder.names.allSatisfy { $0.hasPrefix(TemporaryFile.prefix) })
        first.discard()
        second.discard()
        #expect(folder.names.isEmpty)
    }

    @Test func aMissingDirectoryIsNotMadeByCreatingAFile() throws {
        let folder = try TestFolder()
        #expect(throws: SystemError(call: "open", path: folder.file("new"), errno: ENOENT)) {
            _ = try TemporaryFile.create(in: folder.file("new"), kind: .automatic)
        }
        #expect(folder.names.isEmpty)
    }
}
