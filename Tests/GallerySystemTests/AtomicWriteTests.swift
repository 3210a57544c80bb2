import Glibc
import Testing
@testable import GallerySystem

/// The one publish: `createNew` (an anonymous file named by `linkat`, refused rather than replacing) and
/// `replace` (the same, falling back to a named temporary and `rename`).
@Suite struct AtomicWriteTests {
    @Test(arguments: [false, true])
    func aNewFileIsPublishedWholeWithNothingElseMade(durable: Bool) throws {
        let dir = try TestFolder()
        let body = TestFolder.bytes(45_000, seed: 3)
        #expect(try AtomicWrite.createNew(dir.file("a.jpg"), with: body, durable: durable))
        #expect(dir.read("a.jpg") == body)
        #expect(dir.names == ["a.jpg"])
    }

    @Test func anExistingFileIsLeftAloneAndTheCallerIsTold() throws {
        let dir = try TestFolder()
        try dir.write(Array("old".utf8), to: "a.jpg")
        #expect(try !AtomicWrite.createNew(dir.file("a.jpg"), with: TestFolder.bytes(1_000, seed: 1), durable: false))
        #expect(dir.read("a.jpg") == Array("old".utf8))
        #expect(dir.names == ["a.jpg"])
    }

    @Test func aMissingFolderIsRefusedNotThrown() throws {
        let dir = try TestFolder()
        #expect(try !AtomicWrite.createNew(dir.file("no/such/a.jpg"), with: [1, 2, 3], durable: false))
        #expect(dir.names.isEmpty)
    }

    @Test(arguments: [TemporaryFile.Kind.automatic, .named])
    func replaceCreatesFoldersReplacesAndLeavesNoTemporary(kind: TemporaryFile.Kind) throws {
        let dir = try TestFolder()
        try AtomicWrite.replace(dir.file("a/b/c.txt"), with: Array("first".utf8), durable: false, kind: kind)
        try AtomicWrite.replace(dir.file("a/b/c.txt"), with: Array("second, longer".utf8), durable: true, kind: kind)
        #expect(dir.read("a/b/c.txt") == Array("second, longer".utf8))
        #expect(try Syscall.names(in: dir.file("a/b")) == ["c.txt"])
    }

    @Test func aFailedReplaceNamesTheCallAndThePathAndLeavesNoTemporary() throws {
        let dir = try TestFolder()
        try Syscall.makeDirectories(dir.file("d/inner"))
        #expect {
            try AtomicWrite.replace(dir.file("d"), with: [1], durable: false, kind: .named)
        } throws: { error in
            let failure = error as? SystemError
            return failure?.call == "rename" && failure?.path == dir.file("d") && failure?.errno == EISDIR
        }
        #expect(dir.names == ["d"])
    }
}
