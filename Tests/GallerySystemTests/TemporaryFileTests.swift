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

    /// The anonymous file is named through its descriptor (`AT_EMPTY_PATH`) where the kernel allows it, else
    /// through its name in /proc: the same file either way, and neither replaces an existing name.
    @Test(arguments: [true, false]) func linkingByDescriptorOrThroughProcNamesTheSameFile(byDescriptor: Bool) throws {
        let folder = try TestFolder()
        let file = try #require(TemporaryFile.anonymous(in: folder.path))
        defer { file.discard() }
        try Syscall.writeAll(file.fd, Array("abc".utf8), path: "test")
        let linked = byDescriptor ? file.linkNew(as: folder.file("a")) : file.linkByProcPath(as: folder.file("b"))
        #expect(linked)
        #expect(folder.read(byDescriptor ? "a" : "b") == Array("abc".utf8))
        try folder.write(Array("old".utf8), to: "c")
        #expect(!(byDescriptor ? file.linkNew(as: folder.file("c")) : file.linkByProcPath(as: folder.file("c"))))
        #expect(errno == EEXIST)
        #expect(folder.read("c") == Array("old".utf8))
    }

    /// A missing folder fails the link with ENOENT, which is also how an older kernel refuses `AT_EMPTY_PATH`:
    /// the link through /proc fails the same, so linking by descriptor stays on. On a kernel that allows it
    /// (6.10 or later, or as root), the first link keeps it on.
    @Test func aMissingFolderDoesNotTurnOffLinkingByDescriptor() throws {
        let folder = try TestFolder()
        let file = try #require(TemporaryFile.anonymous(in: folder.path))
        defer { file.discard() }
        let allowed = geteuid() == 0 || Self.kernelAtLeast(6, 10)
        #expect(!file.linkNew(as: folder.file("missing/a")))
        #expect(errno == ENOENT)
        #expect(file.linkNew(as: folder.file("a")))
        let on = TemporaryFile.linksByDescriptor.load(ordering: .relaxed)
        if allowed { #expect(on) }
    }

    static func kernelAtLeast(_ major: Int, _ minor: Int) -> Bool {
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let parts = release.split(separator: ".").prefix(2).map { Int($0.prefix { $0.isNumber }) ?? 0 }
        return parts.count == 2 && (parts[0], parts[1]) >= (major, minor)
    }

    @Test func aMissingDirectoryIsNotMadeByCreatingAFile() throws {
        let folder = try TestFolder()
        #expect(throws: SystemError(call: "open", path: folder.file("new"), errno: ENOENT)) {
            _ = try TemporaryFile.create(in: folder.file("new"), kind: .automatic)
        }
        #expect(folder.names.isEmpty)
    }
}
