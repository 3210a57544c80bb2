import Foundation
import GalleryTestSupport

/// A FaultServer acting as a 500px-style API for the `run` command: `/photos?page=N` lists
/// `perPage` photos of the given corpus files, `/img/ID.EXT` serves their bytes.
struct GalleryCLIKit {
    let server: FaultServer
    /// Photo ids per page, page 1 first.
    let pages: [[Int]]
    /// The corpus file behind each id.
    let files: [Int: String]

    /// `pages` pages of `perPage` photos cycling through `corpusFiles`; ids count from 1.
    init(pages count: Int, perPage: Int,
         corpusFiles: [String] = ["libjpeg-turbo/testorig.jpg", "png-suite/basn2c08.png"]) throws {
        server = try FaultServer()
        var pages: [[Int]] = []
        var files: [Int: String] = [:]
        for page in 0..<count {
            let ids = (1...perPage).map { page * perPage + $0 }
            for id in ids { files[id] = corpusFiles[(id - 1) % corpusFiles.count] }
            pages.append(ids)
        }
        self.pages = pages
        self.files = files
        let (base, listed, names) = (server.baseURL, pages, files)
        server.route("/photos") { request, _ in
            let number = (request.query ?? "").split(separator: "&").first { $0.hasPrefix("page=") }
                .flatMap { Int($0.dropFirst(5)) } ?? 0
            let ids = number >= 1 && number <= listed.count ? listed[number - 1] : []
            let items = ids.map { id in
                "{\"id\":\(id),\"name\":\"Photo \(id)\",\"user\":{\"username\":\"u\(id)\"},\"rating\":70,"
                    + "\"images\":[{\"size\":2048,\"url\":\"\(base)\(GalleryCLIKit.imagePath(id, names[id]!))\"}]}"
            }
            return .status(200, headers: ["Content-Type": "application/json"],
                           text: "{\"total_pages\":\(listed.count),\"photos\":[\(items.joined(separator: ","))]}")
        }
        for (id, file) in files {
            let bytes = try Corpus.bytes(file)
            server.route(Self.imagePath(id, file)) { _, _ in .file(bytes, etag: "\"\(id)\"", contentType: "image/jpeg") }
        }
    }

    static func imagePath(_ id: Int, _ file: String) -> String {
        "/img/\(id)." + (file.hasSuffix(".png") ? "png" : "jpg")
    }

    func imagePath(_ id: Int) -> String { Self.imagePath(id, files[id]!) }

    var allIDs: [Int] { pages.flatMap { $0 } }

    /// The built binary (found by GalleryTestSupport next to the test bundle).
    static var binary: String { (try? BuiltProduct.path()) ?? "fetch-gallery (not built)" }

    /// `gallery.json` as a dictionary.
    static func manifest(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/gallery.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    static func manifestPhotos(_ folder: String) throws -> [[String: Any]] {
        try manifest(folder)["photos"] as? [[String: Any]] ?? []
    }

    /// Waits until `condition` holds or `seconds` pass; whether it held.
    @discardableResult
    static func waitFor(_ seconds: Double, _ condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return condition()
    }
}
