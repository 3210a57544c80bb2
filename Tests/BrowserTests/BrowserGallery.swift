import Foundation
import GalleryTestSupport

/// A gallery made by the built `fetch-gallery run` from a local 500px-style API (our fault server on
/// 127.0.0.1), opened from disk: 9 real camera photos (landscape and portrait, EXIF orientations),
/// the first tagged with a camera's EXIF by exiftool, one named like markup, one with a 300-character
/// name; 4 photos per index page, so index pages 1-3 and a page boundary between photos 4 and 5.
///
/// The photos are scaled to 700 px (ImageMagick) and the thumbnails made at 160, 320 and 640: the same
/// three steps of two as the README's `--sizes 256,512,1024`, at a cost a debug build on a busy 2-CPU
/// machine makes in well under a minute (the full-size set took almost three).
struct BrowserGallery: Sendable {
    static let perPage = 4
    /// `--sizes`: the index's srcset offers each.
    static let sizes = [160, 320, 640]
    static let hostileName = "<img src=x onerror=alert(1)>"
    static let longName = "A" + String(repeating: "verylongwordwithoutspaces", count: 12)
    static let photos: [(name: String, file: String)] = [
        ("Harbour at dawn", "exif-orientation/Landscape_1.jpg"),
        (hostileName, "exif-orientation/Portrait_1.jpg"),
        ("Forest path", "exif-orientation/Portrait_6.jpg"),
        ("Dunes", "exif-orientation/Landscape_3.jpg"),
        ("Evening boats", "exif-orientation/Landscape_6.jpg"),
        (longName, "exif-orientation/Landscape_8.jpg"),
        ("Cups", "exif-orientation/Portrait_2.jpg"),
        ("Leaf", "exif-orientation/Landscape_2.jpg"),
        ("Lake at night", "exif-orientation/Portrait_8.jpg"),
    ]

    let dir: TempDirectory
    /// The gallery folder.
    let folder: String
    /// What the command printed, for failure messages.
    let output: String

    /// Serves the catalogue (the first `count` photos), runs the built command on it with `extra`
    /// arguments and returns the gallery.
    static func make(_ extra: [String] = [], count: Int = photos.count) async throws -> BrowserGallery {
        let dir = try TempDirectory(prefix: "fetch-gallery-browser")
        let server = try FaultServer()
        defer { server.stop() }
        var items: [String] = []
        for (index, photo) in photos.prefix(count).enumerated() {
            let id = index + 1
            let original = try dir.write(try Corpus.bytes(photo.file), to: "\(id).jpg")
            let scaled = try ProcessRunner.run("convert", [original, "-resize", "700x700", original], timeout: 60)
            guard scaled.exitCode == 0 else {
                throw BrowserError.transport(command: "convert \(photo.file)", reason: scaled.stderrText)
            }
            if id == 1 { try ExifTool.write(ExifTool.cameraTags, to: original) }
            let bytes = try dir.read("\(id).jpg")
            let path = "/img/\(id).jpg"
            let served = bytes
            server.route(path) { _, _ in .file(served, etag: "\"\(id)\"", contentType: "image/jpeg") }
            let name = String(decoding: try JSONEncoder().encode(photo.name), as: UTF8.self)
            items.append("{\"id\":\(id),\"name\":\(name),\"user\":{\"username\":\"photographer \(id)\"},\"rating\":\(60 + id),"
                         + "\"description\":\"Photo number \(id).\",\"images\":[{\"size\":2048,\"url\":\"\(server.baseURL)\(path)\"}]}")
        }
        let listing = "{\"total_pages\":1,\"photos\":[\(items.joined(separator: ","))]}"
        server.route("/photos") { _, _ in .status(200, headers: ["Content-Type": "application/json"], text: listing) }
        let folder = dir.file("gallery")
        let binary = try BuiltProduct.path()
        let result = try await DedicatedTaskExecutor.offPool {
            try ProcessRunner.run(binary, ["run", "--api", server.baseURL, "--pages", "1", "--out", folder,
                                           "--sizes", sizes.map(String.init).joined(separator: ","), "--photos-per-page", String(perPage), "--progress", "none"] + extra,
                                  timeout: 150)
        }
        guard result.exitCode == 0 else {
            throw BrowserError.transport(command: "fetch-gallery run", reason: "exit \(String(describing: result.exitCode)): \(result.stderrText)")
        }
        return BrowserGallery(dir: dir, folder: folder, output: result.stderrText)
    }

    /// `file://` URL of a file in the gallery.
    func url(_ relative: String) -> URL { URL(fileURLWithPath: folder + "/" + relative) }

    /// The page of photo `id` (1-based), relative to the gallery.
    func pagePath(_ id: Int) throws -> String {
        let bucket = String(format: "pages/%03d", id)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + bucket)
        guard let name = names.first(where: { $0.hasPrefix("\(id)-") && $0.hasSuffix(".html") }) else {
            throw BrowserError.timedOut(waitingFor: "a page for photo \(id) in \(bucket) (found \(names))", seconds: 0)
        }
        return bucket + "/" + name
    }
}
