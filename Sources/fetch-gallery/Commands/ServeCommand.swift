import ArgumentParser
import Foundation
import GalleryServe

/// `fetch-gallery serve`: the thumbnail service with imgproxy's URLs (docs/SERVE.md). Thin: flags and
/// imgproxy's environment variables into a ``ServeConfiguration``; GalleryServe does the rest.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve thumbnails over HTTP with imgproxy's URL format (signed URLs, presets, a disk cache).",
        discussion: """
            GET /SIGNATURE/OPTIONS/plain/SOURCE_URL@EXT or /SIGNATURE/OPTIONS/BASE64URL_SOURCE.EXT, as imgproxy; \
            also /info/..., /health and /metrics. Sources: http(s) URLs (public addresses only unless \
            --allow-private-addresses; --allow-host narrows them) and local:///PATH under --root. \
            Environment: IMGPROXY_KEY, IMGPROXY_SALT (or IMGPROXY_KEYS, IMGPROXY_SALTS, comma-separated), \
            IMGPROXY_PRESETS, IMGPROXY_ONLY_PRESETS, IMGPROXY_AUTO_WEBP, IMGPROXY_AUTO_AVIF. \
            Prints "listening on http://HOST:PORT" once ready; SIGTERM finishes requests in flight, then exits.
            """
    )

    @Option(help: ArgumentHelp("Address and port to listen on (port 0 picks a free one).", valueName: "host:port"))
    var bind = "127.0.0.1:8080"
    @Option(help: "Decode and encode threads (default: one per core).")
    var workers: Int?
    @Option(help: ArgumentHelp("Folder local:///PATH sources are read from (no path may leave it).", valueName: "dir"))
    var root: String?
    @Option(name: .customLong("allow-host"), help: ArgumentHelp("A host sources may name (repeatable; .example.com covers subdomains). Default: any.", valueName: "host"))
    var allowedHosts: [String] = []
    @Flag(help: "Let sources reach loopback, private and link-local addresses.")
    var allowPrivateAddresses = false
    @Option(name: .customLong("key"), help: ArgumentHelp("Hex signing key (repeatable, matched with --salt by position; the first signs).", valueName: "hex"))
    var keys: [String] = []
    @Option(name: .customLong("salt"), help: ArgumentHelp("Hex signing salt (repeatable).", valueName: "hex"))
    var salts: [String] = []
    @Option(name: .customLong("preset"), help: ArgumentHelp("A preset NAME=OPTIONS (repeatable), options separated by /.", valueName: "name=options"))
    var presets: [String] = []
    @Flag(help: "Presets-only mode: the options part of a URL names presets only.")
    var onlyPresets = false
    @Flag(help: "Answer WebP to clients whose Accept allows it, when the URL names no format.")
    var autoWebp = false
    @Flag(help: "Answer AVIF to clients whose Accept allows it, when the URL names no format (before WebP).")
    var autoAvif = false
    @Option(help: "Seconds a result is served without asking the source again.")
    var ttl = 3600
    @Option(help: ArgumentHelp("Folder of the persistent result cache (default: results in memory only).", valueName: "dir"))
    var cacheDir: String?
    @Option(help: "Most megabytes the result cache holds.")
    var cacheMb = 1024
    @Option(help: "Most megabytes of decoded bitmaps kept in memory (other sizes of recent sources).")
    var decodedCacheMb = 64
    @Option(help: "Largest source accepted, in megabytes.")
    var maxSourceMb = 50
    @Option(help: "Most megapixels a source may have.")
    var maxMegapixels = 50
    @Option(help: "Most seconds a source download may take.")
    var downloadTimeout: Double = 10
    @Option(help: "Most megapixels decoded at once (a budget across requests, not a count).")
    var decodeBudget = 100
    @Option(help: "Encoder quality when the URL gives none.")
    var quality = 80
    @Flag(help: "No access-log line per request.")
    var quiet = false
    @OptionGroup var certificates: CertificateOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = ServeConfiguration()
        guard let colon = bind.lastIndex(of: ":"), let port = Int(bind[bind.index(after: colon)...]), (0...65_535).contains(port) else {
            throw ValidationError("--bind must be HOST:PORT, not '\(bind)'")
        }
        configuration.host = String(bind[..<colon])
        configuration.port = port
        if let workers { configuration.workers = max(1, workers) }
        configuration.root = root
        configuration.allowedHosts = allowedHosts
        configuration.allowPrivateAddresses = allowPrivateAddresses
        configuration.ttl = ttl
        configuration.cacheDirectory = cacheDir
        configuration.cacheBytes = Int64(cacheMb) << 20
        configuration.decodedCacheBytes = max(0, decodedCacheMb) << 20
        configuration.maxSourceBytes = Int64(maxSourceMb) << 20
        configuration.maxSourcePixels = maxMegapixels * 1_000_000
        configuration.downloadTimeout = downloadTimeout
        configuration.decodeBudgetMegapixels = decodeBudget
        configuration.defaultQuality = quality
        configuration.accessLog = !quiet
        configuration.caCertificates = certificates.caCertificates
        func on(_ name: String) -> Bool { ["1", "t", "true", "yes"].contains(environment[name]?.lowercased() ?? "") }
        configuration.autoWebP = autoWebp || on("IMGPROXY_AUTO_WEBP")
        configuration.autoAVIF = autoAvif || on("IMGPROXY_AUTO_AVIF")
        func list(_ name: String) -> [String] { environment[name].map { $0.split(separator: ",").map(String.init) } ?? [] }
        var keys = self.keys, salts = self.salts
        if keys.isEmpty {
            keys = list("IMGPROXY_KEYS").isEmpty ? list("IMGPROXY_KEY") : list("IMGPROXY_KEYS")
            salts = list("IMGPROXY_SALTS").isEmpty ? list("IMGPROXY_SALT") : list("IMGPROXY_SALTS")
        }
        switch Self.parser(presets: presets, environment: environment["IMGPROXY_PRESETS"], keys: keys, salts: salts,
                           onlyPresets: onlyPresets || on("IMGPROXY_ONLY_PRESETS")) {
        case .success(let parser): configuration.parser = parser
        case .failure(let error): throw ValidationError(error.message)
        }
        let service: ImageService
        do { service = try ImageService(configuration: configuration) } catch {
            StandardError.line("fetch-gallery serve: \(error.message)")
            throw ExitCode.failure
        }
        let host = configuration.host
        // Before the socket: from here on SIGTERM and SIGINT stop the server gracefully (a second one exits at once).
        let interrupts = Interrupts()
        do {
            try await ServeServer.run(service, until: { _ = await interrupts.wait() }) { port in
                StandardOutput.line("listening on http://\(host):\(port)")
            }
        } catch {
            StandardError.line("fetch-gallery serve: \(error)")
            throw ExitCode.failure
        }
        StandardError.line("fetch-gallery serve: stopped")
    }

    /// The URL parser from the presets and keys given, or the first one that is malformed.
    static func parser(presets: [String], environment: String?, keys: [String], salts: [String],
                       onlyPresets: Bool) -> Result<ImageURLParser, ServeError> {
        Result { () throws(ServeError) -> ImageURLParser in
            var presetList = Presets()
            if let environment { try presetList.add(imgproxyList: environment) }
            for preset in presets { try presetList.add(preset) }
            let signer = keys.isEmpty && salts.isEmpty ? nil : try URLSigner(hexKeys: keys, hexSalts: salts)
            return ImageURLParser(presets: presetList, onlyPresets: onlyPresets, signer: signer)
        }
    }
}
