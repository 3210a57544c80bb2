import Foundation
import GalleryTestSupport
import GallerySync
@testable import GalleryKit
@testable import PhotoGallery

/// One photo as the fake API lists it, with the corpus file its image URL serves.
struct FakePhoto: Sendable {
    var id: Int
    var name: String
    var username = "someone"
    var rating = 80.5
    var nsfw = false
    var width = 227
    var height = 149
    /// The corpus file served at ``imagePath``.
    var corpusFile = "libjpeg-turbo/testorig.jpg"

    init(id: Int, name: String? = nil, corpusFile: String = "libjpeg-turbo/testorig.jpg") {
        self.id = id
        self.name = name ?? "Photo number \(id)"
        self.corpusFile = corpusFile
    }

    var imagePath: String {
        "/img/\(id)." + ((corpusFile as NSString).pathExtension == "png" ? "png" : "jpg")
    }

    var bytes: [UInt8] { get throws { try Corpus.bytes(corpusFile) } }

    /// The listing item, as a 500px-style API sends it.
    func json(base: String) -> String {
        let item: [String: Any] = [
            "id": id, "name": name, "user": ["username": username], "rating": rating, "nsfw": nsfw,
            "width": width, "height": height, "images": [["size": 2048, "url": base + imagePath]],
        ]
        let data = try! JSONSerialization.data(withJSONObject: item, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

/// A FaultServer acting as a 500px-style API: `/photos?...&page=N` answers the JSON page set for N
/// (items as raw JSON text, so a test can send wrong-typed fields), images answer real corpus bytes.
final class FakeAPI: Sendable {
    /// The pages being served, shared with the route closure.
    final class Listing: Sendable {
        let pages = Locked<[[String]]>([])
        let totalPages = Locked<Int?>(nil)
    }

    let server: FaultServer
    private let listing = Listing()

    init() throws {
        server = try FaultServer()
        server.route("/photos") { [listing] request, _ in
            let number = FakeAPI.pageNumber(request.query)
            let list = listing.pages.withLock { number >= 1 && number <= $0.count ? $0[number - 1] : [] }
            let total = listing.totalPages.withLock { $0 }.map { ",\"total_pages\":\($0)" } ?? ""
            return .status(200, headers: ["Content-Type": "application/json"],
                           text: "{\"current_page\":\(number)\(total),\"photos\":[\(list.joined(separator: ","))]}")
        }
    }

    /// Lists `photos` page by page and routes every image to its bytes (with an ETag, so resumes work).
    convenience init(_ photos: [[FakePhoto]], totalPages: Int? = nil) throws {
        try self.init()
        setPages(photos.map { $0.map { $0.json(base: base) } }, totalPages: totalPages ?? photos.count)
        for photo in photos.joined() { try serve(photo) }
    }

    func setPages(_ items: [[String]], totalPages total: Int?) {
        listing.pages.withLock { $0 = items }
        listing.totalPages.withLock { $0 = total }
    }

    /// Routes the photo's image path to its corpus bytes.
    func serve(_ photo: FakePhoto) throws {
        let bytes = try photo.bytes
        let type = photo.imagePath.hasSuffix(".png") ? "image/png" : "image/jpeg"
        server.route(photo.imagePath) { _, _ in .file(bytes, etag: "\"\(photo.id)\"", contentType: type) }
    }

    var base: String { server.baseURL }
    var baseURL: URL { URL(string: server.baseURL)! }

    /// The page numbers the client asked for, in order.
    var requestedPages: [Int] { server.requests(path: "/photos").map { FakeAPI.pageNumber($0.query) } }

    static func pageNumber(_ query: String?) -> Int {
        for pair in (query ?? "").split(separator: "&") where pair.hasPrefix("page=") {
            return Int(pair.dropFirst(5)) ?? 0
        }
        return 0
    }
}

/// Records every event, for tests that count what happened.
final class EventLog: GalleryObserver {
    let events = Locked<[GalleryEvent]>([])
    func gallery(_ event: GalleryEvent) { events.withLock { $0.append(event) } }

    var finished: [Int] {
        events.withLock { $0.compactMap { if case .photoFinished(let id, _, _, _) = $0 { id } else { nil } } }
    }
}

/// Jobs, engines and gallery reading for the pipeline tests.
enum PipelineKit {
    /// Fast retries and short timeouts, so fault cases take a second, not a minute.
    static func engine() -> TransferEngine {
        var c = TransferConfiguration()
        c.retry = RetryPolicy(maxAttempts: 3, baseBackoff: 0.02, maxBackoff: 0.1, maxRetryAfter: 1)
        c.deadline = 20
        c.connectTimeout = 2
        return TransferEngine(configuration: c)
    }

    static func job(_ api: FakeAPI, folder: String, pages: Int = 5, sizes: [Int] = [128, 256]) -> GalleryJob {
        var job = GalleryJob(source: .api(base: api.baseURL, consumerKey: nil), folder: folder)
        job.pages = pages
        job.thumbnailSizes = sizes
        job.workers = 2
        job.pageAttempts = 2
        return job
    }

    static func run(_ job: GalleryJob, observers: [any GalleryObserver] = []) async throws -> GalleryRunSummary {
        let engine = engine()
        defer { engine.shutdown() }
        return try await GalleryRun(job: job, engine: engine, observers: observers).run()
    }

    /// `gallery.json`, decoded.
    static func manifest(_ folder: String) throws -> GalleryManifest {
        try JSONDecoder().decode(GalleryManifest.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/gallery.json")))
    }

    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// Every regular file below `folder`, relative paths, sorted.
    static func files(_ folder: String) -> [String] {
        let all = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
        return all.filter { relative in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    /// Modification times of every file below `folder`, to show a re-run rewrote nothing.
    static func modificationTimes(_ folder: String, under sub: String) -> [String: Date] {
        var out: [String: Date] = [:]
        for file in files(folder + "/" + sub) {
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + sub + "/" + file)
            out[file] = attributes?[.modificationDate] as? Date
        }
        return out
    }
}
