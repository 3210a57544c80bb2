import Foundation
import Testing
@testable import GallerySystem

/// A path's folder, last component and extension, as Foundation's path methods give them.
@Suite struct PathTextTests {
    /// Every path here gets Foundation's answers, trailing slashes, hidden files and dotted folders included.
    static let paths = [
        "", "/", "ab", ".hidden", "a/.hidden", "a.", "a.b.c", "dir.x/file", "dir.x/file.JPG", "/abs/x.png",
        "a/b/", "a//b.c", "photos/577/7509291125847577-p00030.jpg", "x/..jpg", "x/.a.b", "a/b.c/", "..", "a/..",
        "./x.jpg", "ä/ü.jpeg", "a.b/", "/a", "/a/b//", "thumbs/256/577/750-p00030.webp", "/dev/shm/out/pages/1/x.html",
    ]

    @Test(arguments: paths) func theSameAsFoundation(_ path: String) {
        let ns = path as NSString
        #expect(PathText.directory(path) == ns.deletingLastPathComponent)
        #expect(PathText.lastComponent(path) == ns.lastPathComponent)
        #expect(PathText.fileExtension(path) == ns.pathExtension)
    }

    /// One character: Foundation stops the process on these (so they are not in the list above).
    @Test func aPathOfOneCharacter() {
        #expect(PathText.directory("a") == "")
        #expect(PathText.lastComponent("a") == "a")
        #expect(PathText.fileExtension("a") == "")
        #expect(PathText.directory(".") == "")
        #expect(PathText.fileExtension(".") == "")
    }

    /// The folder a system call is given for a file's path: "." for a bare name, "/" at the root.
    @Test func theFolderOfAFile() {
        #expect(PathText.folder(of: "a.jpg") == ".")
        #expect(PathText.folder(of: "a") == ".")
        #expect(PathText.folder(of: "/a.jpg") == "/")
        #expect(PathText.folder(of: "/dev/shm/out/pages/1/x.html") == "/dev/shm/out/pages/1")
        #expect(PathText.folder(of: "pages/1/x.html") == "pages/1")
    }

    /// Repeated slashes inside are kept as written (Foundation folds them); the folder is the same one.
    @Test func repeatedSlashesInsideAreKept() {
        #expect(PathText.directory("a//b/c.jpg") == "a//b")
        #expect(PathText.directory("//b") == "/")
        #expect(PathText.lastComponent("a//b/c.jpg") == "c.jpg")
    }
}
