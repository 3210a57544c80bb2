import ArgumentParser
import Foundation
import GalleryKit

/// `fetch-gallery download --urls FILE --out DIR`: fetch every listed URL into DIR, resuming partials.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download every URL listed in a file.",
        discussion: "Each URL is saved as DIR/<last path component> (sanitised, made unique). Partial files from an "
            + "earlier run are resumed; files already complete are skipped. Exit status 1 if any download failed.")

    @Option(help: "File with one URL per line (blank lines and #comments skipped).") var urls: String
    @Option(help: "Folder to write into (created if missing).") var out: String
    @OptionGroup var transfer: TransferOptions
    @Option(name: .customLong("max-attempts"), help: "Attempts per file, including the first.") var maxAttempts = 5
    @Flag(name: .customLong("any-file"),
          help: ArgumentHelp("Save whatever the server sends. By default a body that is not a JPEG, PNG, GIF or WebP "
              + "image (by its bytes: an HTML page, a login wall) fails that URL after retries."))
    var anyFile = false
    /// The default since images are checked unless --any-file; kept so existing scripts still parse.
    @Flag(name: .customLong("expect-images"), help: .hidden) var expectImages = false
    @Flag(name: .customLong("allow-private-addresses"),
          help: "Let URLs and redirects lead anywhere (by default no link-local address, 169.254.0.0/16 or fe80::/10, and no redirect to a more private address than the listed URL's host).")
    var allowPrivateAddresses = false

    @OptionGroup var dns: DNSOptions
    @Flag(name: .customLong("respect-opt-out"),
          help: "Skip files whose site opts them out of AI use (robots.txt, X-Robots-Tag, TDMRep, Content-Signal, Content-Usage), before their body is read.")
    var respectOptOut = false
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if anyFile && expectImages { throw ValidationError("--any-file and --expect-images contradict each other") }
        guard maxAttempts >= 1 else { throw ValidationError("--max-attempts must be at least 1") }
    }

    func run() async throws {
        guard let text = try? String(contentsOfFile: urls, encoding: .utf8) else {
            throw ValidationError("cannot read URL list \(urls)")
        }
        do { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) } catch {
            throw ValidationError("cannot create \(out): \(error.localizedDescription)")
        }
        var namer = DestinationNamer()
        // The listed URLs were named by the user, so their own hosts may be anything; a redirect may not
        // lead to a more private address than the host it came from.
        let policy = allowPrivateAddresses ? AddressPolicy.unrestricted : AddressPolicy(
            .atMostAsPrivateAsOrigin,
            explanation: "a redirect may not lead to a more private address than the listed URL's host; "
                + "--allow-private-addresses lifts this")
        let requests = URLList.parse(text).map { url in
            DownloadRequest(url: url, destination: (out as NSString).appendingPathComponent(namer.name(for: url)),
                            expectImage: !anyFile, addressPolicy: policy)
        }
        let aggregate = AggregateProgress()
        var config = transfer.configuration(observers: [aggregate])
        config.retry.maxAttempts = maxAttempts
        config.resolver = try await dns.resolver()
        config.allowsLinkLocal = allowPrivateAddresses
        let engine = TransferEngine(configuration: config)
        let report = BatchReport(renderer: output.renderer, aggregate: aggregate, total: requests.count)

        let ticker = ProgressTicker.start { report.tick() }
        let optOut = respectOptOut ? OptOutGate(policy: OptOutPolicy(tokens: ["fetch-gallery"]), engine: engine) : nil
        await engine.downloadAll(requests, optOut: optOut) { report.record($0) }
        ticker.cancel()
        report.finish()
        engine.shutdown()
        if report.failureCount > 0 { throw GalleryFailure(.failures) }
    }
}
