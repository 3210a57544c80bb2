import Foundation
import GallerySync
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The gallery writer renders a batch of photos (``GalleryOutput/batchSize``, 256) at a time on every
/// thread of the run's worker pool: the files must be the ones one thread writes, byte for byte, and
/// a photo's neighbours must not change where a batch ends.
@Suite struct GalleryWriterParallelTests {
    /// Every call on the calling thread, in order.
    struct OneThread: ParallelRunner {
        func map<T>(_ count: Int, _ transform: @escaping @Sendable (Int) -> T) -> [T] { (0..<count).map(transform) }
    }

    static let photos = 601
    /// Cards on an index page: 7 does not divide 256, so index pages straddle the batches.
    static let perPage = 7

    static func failed(_ id: Int) -> Bool { id % 13 == 0 }
    static func name(_ id: Int) -> String { "Photo \(id) <\(id % 5)>" }

    /// A journal of `photos` photos in listing order (every 13th failed), written to `folder`.
    static func journal(in folder: String) throws -> Journal {
        let journal = try Journal(folder: folder)
        for id in 1...photos {
            var entry = GalleryMergeTests.entry(id, page: (id - 1) / 50 + 1, name: name(id))
            try journal.append(.seen(entry.metadata))
            if failed(id) {
                try journal.append(.failed(id: id, reason: "download: HTTP 404 for photo \(id)"))
                continue
            }
            entry.thumbnails[128] = ThumbnailFile(size: 128, path: GalleryNaming.thumbnailPath(id: id, name: entry.metadata.name, size: 128),
                                                  width: 128, height: 96)
            try journal.append(.original(id: id, file: entry.original!))
            for thumbnail in entry.thumbnails.values.sorted(by: { $0.size < $1.size }) {
                try journal.append(.thumbnail(id: id, file: thumbnail))
            }
        }
        return journal
    }

    /// The gallery of ``journal(in:)`` written by `parallel` into a folder of its own; its files by path.
    static func write(with parallel: any ParallelRunner) throws -> [String: Data] {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let journal = try journal(in: folder.path)
        var writer = GalleryWriter(folder: folder.path, title: "Six hundred", source: "http://127.0.0.1/api")
        writer.pageOptions = GalleryPageOptions(photosPerIndexPage: perPage)
        writer.parallel = parallel
        try writer.write(journal, comments: { id in
            id % 50 == 7 ? [Comment(id: id, body: "comment on \(id) <b>bold</b>")] : []
        }, generated: Date(timeIntervalSince1970: 1_700_000_000))
        var files: [String: Data] = [:]
        for path in folder.files() where !path.hasPrefix(".fetch-gallery/") {
            files[path] = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + path))
        }
        return files
    }

    @Test func aWorkerPoolWritesWhatOneThreadWritesAcrossTheBatches() throws {
        let pool = WorkerPool(threads: 4)
        defer { pool.shutdown() }
        let parallel = try Self.write(with: pool)
        let serial = try Self.write(with: OneThread())

        let finished = (1...Self.photos).filter { !Self.failed($0) }
        #expect(finished.count > 2 * GalleryOutput.batchSize, "the gallery does not cross two batches")
        let indexPages = (Self.photos + Self.perPage - 1) / Self.perPage
        #expect(serial.keys.filter { $0.hasPrefix("pages/") }.count == finished.count)
        #expect(serial.keys.filter { $0.hasPrefix("index") }.count == indexPages)
        #expect(Set(parallel.keys) == Set(serial.keys), "\(Set(parallel.keys).symmetricDifference(serial.keys).sorted())")
        let differing = serial.keys.filter { parallel[$0] != serial[$0] }.sorted()
        #expect(differing.isEmpty, "written differently by the worker pool: \(differing.prefix(10)) (\(differing.count) files)")

        // Every finished photo links its neighbours both ways, also where a batch of 256 entries ends
        // (after ids 256 and 512: finished positions 236-237 and 472-473), and names its index page.
        func page(_ id: Int) -> String { GalleryNaming.photoPagePath(id: id, name: Self.name(id)) }
        var broken: [String] = []
        for (position, id) in finished.enumerated() {
            let html = String(decoding: serial[page(id)] ?? Data(), as: UTF8.self)
            if position + 1 < finished.count, !html.contains("href=\"../../\(page(finished[position + 1]))\" rel=\"next\"") {
                broken.append("\(id) has no next")
            }
            if position > 0, !html.contains("href=\"../../\(page(finished[position - 1]))\" rel=\"prev\"") {
                broken.append("\(id) has no previous")
            }
            let index = position / Self.perPage + 1
            if !html.contains("href=\"../../\(index == 1 ? "index.html" : "index-\(index).html")#p\(id)\"") {
                broken.append("\(id) does not name index page \(index)")
            }
        }
        #expect(broken.isEmpty, "\(broken)")
        let manifest = try JSONSerialization.jsonObject(with: serial["gallery.json"] ?? Data()) as? [String: Any]
        let ids = (manifest?["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        #expect(ids == Array(1...Self.photos), "the manifest is not in listing order")
    }
}
