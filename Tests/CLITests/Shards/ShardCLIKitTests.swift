import Foundation
import GalleryTestSupport
import Testing

/// The gallery comparison the shard, plan and Slurm tests rest on sees a change to any one file.
@Suite struct ShardCLIKitTests {
    @Test func oneChangedByteOfOnePhotoPageIsADifference() async throws {
        let api = try GalleryCLIKit(pages: 1, perPage: 3)
        let dir = try TempDirectory()
        let one = dir.file("one"), copy = dir.file("copy")
        let run = try ProcessRunner.run(GalleryCLIKit.binary, ["--api", api.server.baseURL, "--pages", "1", "--out", one]
                                        + ShardCLIKit.fast, timeout: 120)
        #expect(run.exitCode == 0, "stderr: \(run.stderrText)")
        try FileManager.default.copyItem(atPath: one, toPath: copy)
        #expect(try ShardCLIKit.differences(one, copy) == [])

        // Every file of the gallery is compared: three photo pages in their id-bucket folders among them.
        let files = try ShardCLIKit.galleryFiles(one)
        let pages = files.filter { $0.hasPrefix("pages/") }.sorted()
        #expect(pages.count == 3 && pages.allSatisfy { $0.split(separator: "/").count == 3 && $0.hasSuffix(".html") }, "\(pages)")
        #expect(files.contains("index.html") && files.contains("gallery.json") && files.contains { $0.hasPrefix("thumbs/128/") })

        // One byte of one page.
        let page = copy + "/" + pages[1]
        let original = try Data(contentsOf: URL(fileURLWithPath: page))
        var changed = original
        let at = try #require(changed.lastIndex(of: UInt8(ascii: "<")))
        changed[at] = UInt8(ascii: "(")
        try changed.write(to: URL(fileURLWithPath: page))
        #expect(try ShardCLIKit.differences(one, copy) == ["\(pages[1]) differs (\(original.count) and \(original.count) bytes)"])
        try original.write(to: URL(fileURLWithPath: page))

        // A file missing from one side, and one only there.
        let thumb = try #require(files.first { $0.hasPrefix("thumbs/64/") })
        try FileManager.default.moveItem(atPath: copy + "/" + thumb, toPath: copy + "/" + thumb + ".moved")
        #expect(try ShardCLIKit.differences(one, copy) == ["\(thumb) only in \(one)", "\(thumb).moved only in \(copy)"])
        try FileManager.default.moveItem(atPath: copy + "/" + thumb + ".moved", toPath: copy + "/" + thumb)

        // The manifest's time stamp and the run's own state are not the gallery; the rest of the manifest is.
        let manifest = try String(contentsOfFile: copy + "/gallery.json", encoding: .utf8)
        let generated = try #require(manifest.firstRange(of: /"generated" : "[^"]*"/))
        try manifest.replacingCharacters(in: generated, with: "\"generated\" : \"1999-01-01T00:00:00Z\"")
            .write(toFile: copy + "/gallery.json", atomically: true, encoding: .utf8)
        FileManager.default.createFile(atPath: copy + "/.fetch-gallery/other-state", contents: Data("x".utf8))
        #expect(try ShardCLIKit.differences(one, copy) == [])
        try manifest.replacingOccurrences(of: "\"Photo 2\"", with: "\"Photo 9\"")
            .write(toFile: copy + "/gallery.json", atomically: true, encoding: .utf8)
        #expect(try ShardCLIKit.differences(one, copy).map { $0.prefix(21) } == ["gallery.json differs "])
    }
}
