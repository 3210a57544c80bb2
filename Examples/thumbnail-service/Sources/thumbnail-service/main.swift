import Foundation
import GalleryKit
import Hummingbird

// thumbnail-service [--host 127.0.0.1] [--port 8080] [--originals DIR] [--allow-private-addresses]
// Prints one line, "listening on http://HOST:PORT", once it accepts connections (--port 0 picks
// a free port, which the line then tells).
//
// Only public addresses are fetched by default: a client must not make the service reach its own
// loopback services, the cloud metadata address 169.254.169.254 or the private network behind it
// (server-side request forgery). The rule is checked on the address each connection really goes to,
// after DNS and on every redirect. --allow-private-addresses lifts it (a service on a private network
// whose images live there too).
struct Options {
    var host = "127.0.0.1"
    var port = 8080
    var originals: String?
    var allowPrivateAddresses = false

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--allow-private-addresses" {
                options.allowPrivateAddresses = true
                continue
            }
            switch (flag, rest.popFirst()) {
            case ("--host", let value?): options.host = value
            case ("--port", let value?) where Int(value) != nil: options.port = Int(value)!
            case ("--originals", let value?): options.originals = value
            default: return nil
            }
        }
        return options
    }
}

guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(Data("usage: thumbnail-service [--host H] [--port N] [--originals DIR] [--allow-private-addresses]\n".utf8))
    exit(2)
}
let (host, port) = (options.host, options.port)

// One pipeline for every request, sharing the process-wide cache; originals kept on disk across
// restarts when --originals is given.
var configuration = ImagePipeline.Configuration()
configuration.cache = .shared
configuration.originalsFolder = options.originals
configuration.addressPolicy = options.allowPrivateAddresses ? .unrestricted : AddressPolicy(
    .atMostAsPrivateAs(.publicInternet),
    explanation: "this service fetches public addresses only; --allow-private-addresses lifts this")
let pipeline = ImagePipeline(configuration: configuration)

let router = Router()
let thumbnails = ThumbnailRoute(pipeline: pipeline)
router.get("/thumb") { request, context in try await thumbnails.respond(to: request, context: context) }
router.get("/stats") { _, _ in
    let s = pipeline.statistics
    return "hits \(s.cacheHits) coalesced \(s.coalesced) downloads \(s.downloads) decodes \(s.decodes) failures \(s.failures)\n"
}

var application = Application(
    router: router,
    configuration: .init(address: .hostname(host, port: port), serverName: "thumbnail-service"),
    onServerRunning: { [host, port] channel in
        let line = "listening on http://\(host):\(channel.localAddress?.port ?? port)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }
)
application.logger.logLevel = .warning
try await application.runService()
