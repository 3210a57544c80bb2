import Foundation

/// One photo a fake photo service lists: a real image from the corpus, with the text the service would
/// send about it (hostile where a test wants it so).
public struct ServicePhoto: Sendable {
    /// The service's id, as the service spells it (a number, a UUID, a slug id).
    public var id: String
    /// The title.
    public var title: String
    /// The author's name (for Commons, the `Artist` HTML).
    public var author: String
    /// The corpus image served for it.
    public var image: TestPhotos.Photo
    /// Pixel size of `image`.
    public var width: Int
    public var height: Int
    /// Marked mature / sensitive by the service.
    public var mature = false
    /// The service offers no original-size URL (Flickr's `url_o` absent when downloads are not allowed).
    public var noOriginal = false

    /// A photo with these fields.
    public init(id: String, title: String, author: String, image: TestPhotos.Photo, width: Int, height: Int,
                mature: Bool = false, noOriginal: Bool = false) {
        self.id = id
        self.title = title
        self.author = author
        self.image = image
        self.width = width
        self.height = height
        self.mature = mature
        self.noOriginal = noOriginal
    }

    /// The small real JPEGs the fake services serve, with their sizes (227x149 libjpeg-turbo test images).
    public static let images: [(name: String, width: Int, height: Int)] = [
        ("libjpeg-turbo/testorig.jpg", 227, 149), ("libjpeg-turbo/testimgint.jpg", 227, 149),
        ("derived/testorig-progressive.jpg", 227, 149), ("derived/testorig-grayscale.jpg", 227, 149),
    ]

    /// `count` photos with ids from `ids`, titles "Photo N", authors "Author N", cycling the images.
    public static func make(_ count: Int, id: (Int) -> String = { String(1000 + $0) }) throws(TestSupportError) -> [ServicePhoto] {
        var photos: [ServicePhoto] = []
        for index in 0..<count {
            let image = images[index % images.count]
            photos.append(ServicePhoto(id: id(index), title: "Photo \(index)", author: "Author \(index)",
                                       image: try TestPhotos.photo(image.name), width: image.width, height: image.height))
        }
        return photos
    }
}

/// Helpers every fake service shares.
public enum ServiceShapes {
    /// The query of `request` as decoded pairs (later keys win), `+` read as a space.
    public static func query(_ request: FaultServer.Request) -> [String: String] {
        var out: [String: String] = [:]
        for pair in (request.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            out[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return out
    }

    /// `value` as a JSON string literal (quotes included).
    public static func json(_ value: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed])
        let text = String(decoding: data, as: UTF8.self)
        return String(text.dropFirst().dropLast())
    }

    /// A JSON answer with `status` and extra headers.
    public static func answer(_ body: String, status: Int = 200, headers: [String: String] = [:]) -> FaultServer.Response {
        .status(status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }, text: body)
    }

    /// Serves every photo's image at `/img/ID.jpg` (ids percent-encoded) on `server`.
    public static func serveImages(_ photos: [ServicePhoto], on server: FaultServer) {
        for photo in photos {
            let bytes = photo.image.bytes
            server.route(imagePath(photo)) { _, _ in .file(bytes, etag: "\"\(bytes.count)\"", contentType: "image/jpeg") }
        }
    }

    /// Where a photo's image is served.
    public static func imagePath(_ photo: ServicePhoto) -> String {
        "/img/" + (photo.id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "x") + ".jpg"
    }
}
