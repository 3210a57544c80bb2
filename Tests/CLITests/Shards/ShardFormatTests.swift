import Foundation
import GalleryTestSupport
import Testing

/// `run --shard K/N --format avif,jpeg` then `merge --format avif,jpeg`: the merged index and photo
/// pages offer the AVIF thumbnails in `<picture>` `<source>`s, every file they name exists and is
/// AVIF, and the gallery is the one a single process makes with the same formats.
@Suite struct ShardFormatTests {
    /// A display rendition below the photos' size, so photo pages show thumbnails (a page showing
    /// the original has no other encodings to offer); `merge` takes it too.
    static let formats = ["--format", "avif,jpeg", "--display-size", "160"]

    /// The AVIF candidates of every `<source type="image/avif">` in `html`, as paths relative to the page.
    static func avifSources(_ html: String) -> [String] {
        let pattern = /<source type="image\/avif" srcset="([^"]*)"/
        return html.matches(of: pattern).flatMap { match in
            match.1.split(separator: ",").map { candidate in
                let url = candidate.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
                return url.removingPercentEncoding ?? url
            }
        }
    }

    /// Every page under `folder` with at least one AVIF source, each naming an AVIF file that exists.
    static func expectAVIFSources(_ folder: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let pages = try ShardCLIKit.galleryFiles(folder).filter { $0.hasSuffix(".html") }.sorted()
        #expect(pages.contains("index.html") && pages.count > 1, "pages: \(pages)", sourceLocation: sourceLocation)
        for page in pages {
            let html = try String(contentsOfFile: folder + "/" + page, encoding: .utf8)
            let sources = avifSources(html)
            #expect(!sources.isEmpty, "\(page) offers no AVIF <source>", sourceLocation: sourceLocation)
            #expect(html.contains("<picture><source type=\"image/avif\""), "\(page): no <picture>", sourceLocation: sourceLocation)
            let base = URL(fileURLWithPath: folder + "/" + page).deletingLastPathComponent()
            for source in sources {
                let file = base.appendingPathComponent(source).standardizedFileURL.path
                let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
                #expect(bytes.map { $0.count > 12 && Array($0[4..<12]) == Array("ftypavif".utf8) } == true,
                        "\(page) names \(source), which is not an AVIF file (\(bytes?.count ?? -1) bytes)",
                        sourceLocation: sourceLocation)
            }
        }
    }

    @Test func twoShardsWithAVIFMergeIntoPicturePages() async throws {
        // 1800x1200 and 227x149: both larger than the display rendition.
        let api = try GalleryCLIKit(pages: 2, perPage: 2, corpusFiles: ["exif-orientation/Landscape_1.jpg", "libjpeg-turbo/testorig.jpg"])
        let dir = try TempDirectory()
        let source = ["--api", api.server.baseURL, "--pages", "2"] + Self.formats
        let one = try ProcessRunner.run(GalleryCLIKit.binary, source + ["--out", dir.file("one")] + ShardCLIKit.fast, timeout: 180)
        #expect(one.exitCode == 0, "stderr: \(one.stderrText)")
        let shards = try ShardCLIKit.runShards(2, source, out: dir.file("sharded"), timeout: 180)
        for (k, result) in shards.enumerated() { #expect(result.exitCode == 0, "shard \(k): \(result.stderrText)") }
        let merged = try ShardCLIKit.merge(dir.file("sharded"), Self.formats)
        #expect(merged.exitCode == 0, "stderr: \(merged.stderrText)")
        #expect(try GalleryCLIKit.manifestPhotos(dir.file("sharded")).count == 4)
        try Self.expectAVIFSources(dir.file("sharded"))
        try ShardCLIKit.expectSameGallery(dir.file("one"), dir.file("sharded"))

        // Merged without --format, the pages name only the JPEGs (the AVIF files stay where they are).
        let plain = try ShardCLIKit.merge(dir.file("sharded"), ["--display-size", "160"])
        #expect(plain.exitCode == 0, "stderr: \(plain.stderrText)")
        let index = try String(contentsOfFile: dir.file("sharded/index.html"), encoding: .utf8)
        #expect(Self.avifSources(index).isEmpty && !index.contains("<picture>"))
    }
}
