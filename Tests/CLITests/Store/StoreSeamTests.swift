import Foundation
import GalleryTestSupport
import Testing

/// The commands open every store through GalleryKit and take their exit status from it: they name no
/// kind of store, and a store that cannot be opened ends each of them the same way.
@Suite struct StoreSeamTests {
    static let commands = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Sources/fetch-gallery").standardized.path

    /// No type of a kind of store (S3Client, S3Location, S3StoreKind, ObjectGalleryStore, FolderObjectStore,
    /// ObjectStoreSink, LocalFolderStore ...) and no
    /// `ExitCode(N)` in Sources/fetch-gallery: a third kind of store needs no change there.
    @Test func theCommandsNameNoKindOfStoreAndNoExitStatus() throws {
        let kind = try Regex(#"\b(S3[A-Z][A-Za-z]*|LocalFolderStore|ObjectGalleryStore|[A-Za-z]*ObjectStore|ObjectStoreSink)\b|ExitCode\("#)
        var found: [String] = []
        let files = FileManager.default.enumerator(atPath: Self.commands)?.compactMap { $0 as? String } ?? []
        #expect(files.filter { $0.hasSuffix(".swift") }.count >= 10, "\(Self.commands): \(files)")
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: Self.commands + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(kind) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                found.append("\(file):\(number + 1): \(line)")
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// A location or keys that cannot make a store: exit status 2 from run, plan and merge, one line
    /// naming what is wrong, before anything is read or written.
    @Test(arguments: [
        (["--urls", "URLS", "--out", "s3://"], "invalid S3 location"),
        (["plan", "--urls", "URLS", "--out", "s3://bkt/a//x"], "empty path segment"),
        (["merge", "s3://bucket/p"], "no S3 credentials"),
        (["--urls", "URLS", "--out", "s3://bucket/p", "--s3-addressing", "sideways"], "path or virtual"),
    ])
    func aStoreThatCannotBeOpenedIsAUsageError(arguments: [String], words: String) throws {
        let dir = try TempDirectory()
        let list = try dir.write(Array("http://127.0.0.1:1/a.jpg\n".utf8), to: "urls.txt")
        let arguments = arguments.map { $0 == "URLS" ? list : $0 }
        let result = try ProcessRunner.run(GalleryCLIKit.binary, arguments + ["--work-dir", dir.file("work")],
                                           environment: ["HOME": dir.path, "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "",
                                                         "XDG_CACHE_HOME": dir.file("cache")],
                                           timeout: 60)
        #expect(result.exitCode == 2, "\(arguments): \(result.stderrText)")
        #expect(result.stderrText.contains(words), "\(arguments): \(result.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("work")), "\(arguments): the work folder was made")
        let prefix = arguments.first == "plan" ? "fetch-gallery plan: " : arguments.first == "merge" ? "fetch-gallery merge: " : "fetch-gallery: "
        if words != "path or virtual" { #expect(result.stderrText.hasPrefix(prefix), "\(result.stderrText)") }
    }
}
