import Foundation
import GallerySync
import GalleryTestSupport

/// A 500px-style API on a FaultServer whose listing items point at faulty image endpoints, with what
/// the gallery must make of each photo. Build it up (`photo`, `rawItem`, `page`), then `start()`:
/// `/photos?page=N` answers the JSON page built from the items listed for N (or a page override,
/// e.g. truncated JSON), and each image path answers as its handler says.
final class HostileAPI {
    /// What the finished gallery must hold for one listed photo.
    enum Expectation {
        /// In the gallery, byte for byte these bytes (what the server's last good answer carried).
        case ok([UInt8])
        /// In gallery.json as failed, the reason containing one of these phrases.
        case failed(anyOf: [String])
        /// Not in the gallery at all (NSFW, an unreadable item); its image must never be requested.
        case absent
    }

    let server: FaultServer
    private(set) var pages: [Int: [String]] = [:]
    private(set) var pageOverrides: [Int: FaultServer.Response] = [:]
    private(set) var pageFirstAnswers: [Int: [FaultServer.Response]] = [:]
    private(set) var expectations: [Int: Expectation] = [:]
    /// Image paths that must never be requested (NSFW, duplicates, refused addresses).
    private(set) var untouchedPaths: [String] = []
    /// Markup injected through listing text: none of it may appear verbatim in any page written.
    private(set) var injectedMarkup: [String] = []
    var totalPages: Int?

    init() throws {
        server = try FaultServer()
    }

    var base: String { server.baseURL }

    static func imagePath(_ id: Int) -> String { "/img/\(id).jpg" }

    /// Lists a photo on `page` whose image is served by `handler`, expecting `expect`.
    /// `fields` are merged into the item (`name`, `user`, `description`, `nsfw`, wrong types...).
    func photo(_ id: Int, page: Int = 1, name: String? = nil, fields: [String: Any] = [:],
               imageURL: String? = nil, expect: Expectation, handler: FaultServer.Handler? = nil) {
        let url = imageURL ?? base + Self.imagePath(id)
        var item: [String: Any] = ["id": id, "name": name ?? "Photo \(id)", "user": ["username": "user\(id)"],
                                   "rating": 50.5, "images": [["size": 2048, "url": url]]]
        for (key, value) in fields { item[key] = value }
        let data = try! JSONSerialization.data(withJSONObject: item, options: [.sortedKeys])
        pages[page, default: []].append(String(decoding: data, as: UTF8.self))
        if let handler { server.route(Self.imagePath(id), handler) }
        if case .absent = expect { untouchedPaths.append(Self.imagePath(id)) }
        // A duplicate listing keeps the first expectation: the first item seen wins.
        if expectations[id] == nil { expectations[id] = expect }
    }

    /// A photo whose image is one of the shared hostile scenarios.
    func scenario(_ id: Int, _ scenario: HostileScenario, payload: [UInt8], expect: Expectation) {
        photo(id, name: "Scenario \(scenario)", expect: expect)
        scenario.install(on: server, path: Self.imagePath(id), payload: payload)
    }

    /// A listing item as raw JSON text (wrong-typed fields that JSONSerialization would not produce).
    func rawItem(_ json: String, page: Int = 1, id: Int? = nil, expect: Expectation = .absent) {
        pages[page, default: []].append(json)
        if let id {
            expectations[id] = expect
            if case .absent = expect { untouchedPaths.append(Self.imagePath(id)) }
        }
    }

    /// Serves `response` for listing page `number` instead of the JSON built from its items.
    func page(_ number: Int, answers response: FaultServer.Response) {
        pageOverrides[number] = response
    }

    /// Serves `responses` for the first requests of listing page `number`, one each, then the page itself.
    func page(_ number: Int, firstAnswers responses: [FaultServer.Response]) {
        pageFirstAnswers[number] = responses
    }

    func never(request path: String) { untouchedPaths.append(path) }

    func injects(_ markup: String) { injectedMarkup.append(markup) }

    /// Installs the `/photos` route; call once everything is listed.
    func start() {
        let bodies = pages
        let overrides = pageOverrides
        let firstAnswers = pageFirstAnswers
        let asked = Locked<[Int: Int]>([:])
        let total = totalPages ?? max(bodies.keys.max() ?? 1, overrides.keys.max() ?? 1)
        server.route("/photos") { request, _ in
            let number = (request.query ?? "").split(separator: "&").first { $0.hasPrefix("page=") }
                .flatMap { Int($0.dropFirst(5)) } ?? 0
            if let override = overrides[number] { return override }
            let time = asked.withLock { counts -> Int in
                counts[number, default: 0] += 1
                return counts[number]!
            }
            if let first = firstAnswers[number], time <= first.count { return first[time - 1] }
            let items = bodies[number] ?? []
            return .status(200, headers: ["Content-Type": "application/json"],
                           text: "{\"current_page\":\(number),\"total_pages\":\(total),\"photos\":[\(items.joined(separator: ","))]}")
        }
    }

    /// A real JPEG from the corpus: camera photos are about 350 kB (larger than the engine's 256 kB
    /// in-memory limit, so cut downloads resume from part files); `small` ones are a few kB.
    static func camera(_ n: Int) throws -> [UInt8] { try Corpus.bytes("exif-orientation/Landscape_\(n % 9).jpg") }
    static func portrait(_ n: Int) throws -> [UInt8] { try Corpus.bytes("exif-orientation/Portrait_\(n % 9).jpg") }
    static var small: [UInt8] { get throws { try Corpus.bytes("libjpeg-turbo/testorig.jpg") } }
}
