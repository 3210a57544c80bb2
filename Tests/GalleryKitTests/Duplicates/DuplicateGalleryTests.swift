import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// Whole runs with `--duplicates near`: a URL list holding re-encoded copies, two runs of different
/// lists into one folder, and shards holding copies of each other's photos, each giving one photo a
/// group with every source credited, on real photographs and their ImageMagick copies.
@Suite struct DuplicateGalleryTests {
    /// Serves files at `/f/NAME` and makes URL lists of them.
    final class Files: Sendable {
        let server: FaultServer
        init(_ paths: [String]) throws {
            server = try FaultServer()
            for path in paths {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                let name = (path as NSString).lastPathComponent
                server.route("/f/" + name) { _, _ in .file(bytes, etag: "\"\(name)\"", contentType: "image/jpeg") }
            }
        }
        func url(_ path: String) -> String { server.baseURL + "/f/" + (path as NSString).lastPathComponent }
        func list(_ paths: [String]) -> String { paths.map(url).joined(separator: "\n") + "\n" }
    }

    static func job(_ list: String, name: String, folder: String, shard: ShardSpec? = nil) -> GalleryJob {
        var job = GalleryJob(source: .urlList(text: list, name: name), folder: folder)
        job.thumbnailSizes = [128]
        job.workers = 2
        job.allowPrivateAddresses = true
        job.pageOptions.duplicates = .near
        job.shard = shard
        return job
    }

    static func photo(_ manifest: GalleryManifest, _ url: String) -> GalleryManifest.Photo? {
        manifest.photos.first { $0.sourceURL == url }
    }

    /// Cards in the index: one per shown photo.
    static func cards(_ folder: String) throws -> Int {
        try String(contentsOfFile: folder + "/index.html", encoding: .utf8).components(separatedBy: "<li class=\"card\"").count - 1
    }

    @Test("a URL list with re-encoded copies: one card a photo, the largest shown, every source on its page")
    func urlListWithCopies() async throws {
        let copies = try PhotoCopies.shared()
        let cups = copies.images.filter { $0.photo == 1 }
        let (original, half, q40, png) = (cups[0].path, cups[2].path, cups[4].path, cups[6].path)
        let other = copies.images.first { $0.photo == 2 && $0.kind == "original" }!.path
        let files = try Files([original, half, q40, png, other])
        let folder = try TempDirectory()
        // The half-size copy is listed first: the shown photo is the largest, and of the three at 800 x 500
        // pixels (the original, its q40 and PNG copies) the first listed.
        let summary = try await PipelineKit.run(Self.job(files.list([half, original, q40, other, png]), name: "list", folder: folder.path))
        #expect(summary.photosOK == 5)
        let manifest = try PipelineKit.manifest(folder.path)
        let shown = try #require(Self.photo(manifest, files.url(original)))
        #expect(shown.duplicateOf == nil && Set(shown.copies ?? []) == Set([half, q40, png].compactMap { Self.photo(manifest, files.url($0))?.id }))
        for copy in [half, q40, png] {
            let entry = try #require(Self.photo(manifest, files.url(copy)))
            #expect(entry.duplicateOf == shown.id && entry.matchedBy == "phash" && (entry.distance ?? 99) <= DuplicateMode.nearThreshold)
            #expect(entry.status == .ok && FileManager.default.fileExists(atPath: folder.path + "/" + entry.original!), "the file stays")
            #expect(entry.phash?.count == 16 && entry.thumbhash != nil)
        }
        #expect(Self.photo(manifest, files.url(other))?.duplicateOf == nil)
        #expect(try Self.cards(folder.path) == 2)
        let page = try String(contentsOfFile: folder.path + "/" + GalleryNaming.photoPagePath(id: shown.id, name: shown.name), encoding: .utf8)
        #expect(page.contains("Also found at"))
        for copy in [half, q40, png] { #expect(page.contains(files.url(copy)), "\(copy) credited") }
        // The index's placeholders: one data URI per card, in the img's own style.
        let index = try String(contentsOfFile: folder.path + "/index.html", encoding: .utf8)
        #expect(index.components(separatedBy: "url(data:image/png;base64,").count - 1 == 2)
        // The shown photo's placeholder: an 8-pixel drawing of its colours at its shape.
        let card = try #require(index.components(separatedBy: "<li class=\"card\" id=\"p\(shown.id)\"").dropFirst().first)
        let uri = try #require(card.components(separatedBy: "url(data:image/png;base64,").dropFirst().first?.prefix { $0 != ")" })
        let drawing = try ImageDecoder.decode([UInt8](try #require(Data(base64Encoded: String(uri)))), name: "placeholder").bitmap
        let thumbnail = try ImageDecoder.decode(fileAt: folder.path + "/" + shown.thumbnails["128"]!).bitmap
        #expect(drawing.width == 8 && abs(Double(drawing.height) / 8 - Double(thumbnail.height) / Double(thumbnail.width)) < 0.2)
        func mean(_ b: Bitmap) -> [Double] {
            (0..<3).map { c in
                var total = 0.0
                for y in 0..<b.height { for x in 0..<b.width { total += Double(b[x, y, min(c, b.format.channels - 1)]) } }
                return total / Double(b.width * b.height)
            }
        }
        let gap = zip(mean(drawing), mean(thumbnail)).map { abs($0 - $1) }.max()!
        #expect(gap < 16, "the placeholder's mean colour is \(gap) from the thumbnail's")

        // Exact mode on the same folder: no two files are the same bytes, so nothing is grouped.
        var exact = Self.job(files.list([half, original, q40, other, png]), name: "list", folder: folder.path)
        exact.pageOptions.duplicates = .exact
        _ = try await PipelineKit.run(exact)
        #expect(try PipelineKit.manifest(folder.path).photos.allSatisfy { $0.duplicateOf == nil } && Self.cards(folder.path) == 5)
    }

    @Test("two runs of different lists into one folder group across them without decoding the first again")
    func twoRunsIntoOneFolder() async throws {
        let copies = try PhotoCopies.shared()
        let leaf = copies.images.filter { $0.photo == 4 }
        let (original, webp) = (leaf[0].path, leaf[7].path)
        let first = copies.images.first { $0.photo == 5 && $0.kind == "original" }!.path
        let second = copies.images.first { $0.photo == 6 && $0.kind == "original" }!.path
        let files = try Files([original, webp, first, second])
        let folder = try TempDirectory()
        _ = try await PipelineKit.run(Self.job(files.list([original, first]), name: "first list", folder: folder.path))
        let journal = folder.path + "/" + GalleryNaming.journalPath
        let originalsAfterFirst = try String(contentsOfFile: journal, encoding: .utf8).components(separatedBy: "\"type\":\"original\"").count
        let log = EventLog()
        _ = try await PipelineKit.run(Self.job(files.list([webp, second]), name: "second list", folder: folder.path), observers: [log])
        let manifest = try PipelineKit.manifest(folder.path)
        #expect(manifest.photos.count == 4)
        let shown = try #require(Self.photo(manifest, files.url(original)))
        #expect(Self.photo(manifest, files.url(webp))?.duplicateOf == shown.id)
        #expect(try Self.cards(folder.path) == 3)
        // The first run's photos were neither fetched nor decoded again: one original record each.
        #expect(Set(log.finished) == Set([webp, second].compactMap { Self.photo(manifest, files.url($0))?.id }))
        let originals = try String(contentsOfFile: journal, encoding: .utf8).components(separatedBy: "\"type\":\"original\"").count
        #expect(originals - originalsAfterFirst == 2)
        #expect(files.server.requests(path: "/f/" + (original as NSString).lastPathComponent).count == 1)
    }

    @Test("copies in different shards are grouped by the merge, checked on the parts' reductions; a burst's frames are not")
    func shardsGroupedByTheMerge() async throws {
        let copies = try PhotoCopies.shared()
        let boats = copies.images.filter { $0.photo == 3 }
        let (original, q95, crop) = (boats[0].path, boats[5].path, boats[9].path)
        let other = copies.images.first { $0.photo == 7 && $0.kind == "original" }!.path
        // A photo and its frame panned by 10%, with pHashes within the threshold: only the check keeps them apart.
        let scene = try #require(try copies.scenes.first { scene in
            try ![3, 7].contains(scene["pan 0%"]!.photo) && PhotoCopies.hash(scene["pan 0%"]!.path).distance(to: PhotoCopies.hash(scene["pan 10%"]!.path)) <= DuplicateMode.nearThreshold
        })
        let (first, next) = (scene["pan 0%"]!.path, scene["pan 10%"]!.path)
        let files = try Files([original, q95, crop, other, first, next])
        let folder = try TempDirectory()
        // Line i goes to shard i mod 2: the original, the crop and the first frame to shard 0, the q95
        // copy, the other photo and the panned frame to shard 1.
        let list = files.list([original, q95, crop, other, first, next])
        for index in 0..<2 {
            _ = try await PipelineKit.run(Self.job(list, name: "list", folder: folder.path, shard: try ShardSpec(index: index, count: 2)))
        }
        // The parts carry each photo's reduction; the merge reads no photo (there are none left to read).
        let parts = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/" + ShardLayout.partsFolder)
        let part = try String(contentsOfFile: folder.path + "/" + ShardLayout.partsFolder + "/" + #require(parts.first { $0.hasSuffix(".jsonl") }), encoding: .utf8)
        #expect(part.contains("\"grey\":\""))
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path + "/photos") {
            try FileManager.default.removeItem(atPath: folder.path + "/photos/" + name)
        }
        var merge = GalleryMerge(folder: folder.path)
        merge.pageOptions.duplicates = .near
        let report = try merge.run()
        #expect(report.photosOK == 4 && report.copiesGrouped == 2)
        let manifest = try PipelineKit.manifest(folder.path)
        let shown = try #require(Self.photo(manifest, files.url(original)))
        #expect(Self.photo(manifest, files.url(q95))?.duplicateOf == shown.id && Self.photo(manifest, files.url(crop))?.duplicateOf == shown.id)
        #expect(Self.photo(manifest, files.url(first))?.duplicateOf == nil && Self.photo(manifest, files.url(next))?.duplicateOf == nil)
        // What the check measured, against the shown photo: the crop lies inside it, 5% short of two edges.
        let check = try #require(Self.photo(manifest, files.url(crop))?.alignment)
        #expect(check.isCopy && check.trim > 0.02 && check.trim < 0.075 && check.scaleX < 0.98 && check.scaleY < 0.98)
        #expect(Self.photo(manifest, files.url(q95))?.alignment?.cellError ?? 99 < 5)
        let json = try String(contentsOfFile: folder.path + "/gallery.json", encoding: .utf8)
        #expect(json.contains("\"cell_error\"") && !json.contains("\"grey\""), "the check's figures in gallery.json, not the reductions")
        let page = try String(contentsOfFile: folder.path + "/" + GalleryNaming.photoPagePath(id: shown.id, name: shown.name), encoding: .utf8)
        #expect(page.contains(files.url(q95)) && page.contains(files.url(crop)))
    }

    @Test("an original journaled without hashes (an older version) is hashed once, its thumbnails kept")
    func olderJournalIsHashedOnce() async throws {
        let copies = try PhotoCopies.shared()
        let path = copies.images.first { $0.photo == 8 && $0.kind == "original" }!.path
        let files = try Files([path])
        let folder = try TempDirectory()
        let job = Self.job(files.list([path]), name: "list", folder: folder.path)
        _ = try await PipelineKit.run(job)
        let journal = folder.path + "/" + GalleryNaming.journalPath
        let text = try String(contentsOfFile: journal, encoding: .utf8)
        let stripped = text.replacingOccurrences(of: #","phash":"[0-9a-f]{16}""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #","thumbhash":"[^"]*""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""grey":"[^"]*","#, with: "", options: .regularExpression)
        #expect(stripped != text && !stripped.contains("phash") && !stripped.contains("thumbhash") && !stripped.contains("grey"))
        try stripped.write(toFile: journal, atomically: true, encoding: .utf8)
        let thumbnails = PipelineKit.modificationTimes(folder.path, under: "thumbs")
        #expect(!thumbnails.isEmpty)
        let before = try PipelineKit.manifest(folder.path).photos[0]
        _ = try await PipelineKit.run(job)
        let after = try PipelineKit.manifest(folder.path).photos[0]
        #expect(after.phash != nil && after.thumbhash != nil && before.sha256 == after.sha256)
        #expect(PipelineKit.modificationTimes(folder.path, under: "thumbs") == thumbnails, "no thumbnail written again")
        // Hashed once: the third run does not read the original. Zeroed at the same size (the journal only
        // checks sizes), a read would fail the photo.
        let original = folder.path + "/" + after.original!
        let size = try Data(contentsOf: URL(fileURLWithPath: original)).count
        try Data(count: size).write(to: URL(fileURLWithPath: original))
        let third = try await PipelineKit.run(job)
        #expect(third.photosOK == 1 && third.photosFailed == 0)
        #expect(try PipelineKit.manifest(folder.path).photos[0].phash == after.phash)
        #expect(files.server.requests(path: "/f/" + (path as NSString).lastPathComponent).count == 1)
    }
}
