import ArgumentParser
import Foundation
import GalleryDemo
import Synchronization

/// `fetch-gallery serve-demo`: runs the built-in demo catalogue server alone, so other tools
/// (curl, aria2c, benchmark scripts) can be pointed at it. Runs until SIGINT or SIGTERM.
struct ServeDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-demo",
        abstract: "Serve the built-in 500px-style demo catalogue on 127.0.0.1 until Ctrl-C."
    )

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 0

    @Option(help: "Pages of 50 photos to offer.")
    var pages = 20

    @Option(help: ArgumentHelp("Serve a synthetic catalogue of N small photos (~50 kB JPEGs derived from the bundled photographs) instead, for scale tests (up to 10,000,000).", valueName: "N"))
    var synthetic: Int?

    @Flag(help: "Render every image of every page before serving, instead of on first request.")
    var warm = false

    @Option(help: ArgumentHelp("Root folder of the derived-image cache.", valueName: "path"))
    var cacheDir: String?

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard (1...200).contains(pages) else { throw ValidationError("--pages must be 1...200") }
        if let synthetic, !(1...10_000_000).contains(synthetic) { throw ValidationError("--synthetic must be 1...10000000") }
    }

    func run() async throws {
        var configuration = DemoServerConfiguration()
        configuration.port = port
        configuration.pageCount = pages
        configuration.syntheticPhotos = synthetic
        if let cacheDir { configuration.cacheRoot = URL(fileURLWithPath: cacheDir) }
        // Ignore the default handlers before anything can arrive; the sources below take over. While
        // rendering (--warm) a stop cannot wait for the renders, which take minutes: quit at once. Each
        // image is published by a rename when complete, so what is cached stays valid; an unfinished
        // render leaves only a temporary file, removed by a later start.
        let warming = WarmingFlag()
        let stop = Interrupts { signal in
            guard warming.isOn else { return }
            StandardError.line("Stopping on signal \(signal) while rendering; the images finished so far stay cached.")
            _exit(130)
        }

        let server: DemoServer
        do {
            server = try await DemoServer.start(configuration)
        } catch {
            StandardError.line("fetch-gallery: \(error)")
            throw ExitCode.failure
        }
        if warm {
            let photos = server.catalogue.renderings
            StandardError.line("Rendering \(photos.count) photos x \(DemoImageSize.allCases.count) sizes into \(server.store.folder.path) ...")
            let started = Date()
            warming.set(true)
            defer { warming.set(false) }
            do {
                try await server.store.warm(photos)
            } catch {
                StandardError.line("fetch-gallery: \(error)")
                await server.stop()
                throw ExitCode.failure
            }
            StandardError.line(String(format: "Rendered in %.1f s.", Date().timeIntervalSince(started)))
        }
        // One line on stdout, the base URL first, so scripts can `read` it.
        StandardOutput.line(server.notice + "; Ctrl-C stops")
        let signal = await stop.wait()
        StandardError.line("Stopping on signal \(signal).")
        await server.stop()
    }
}

/// Whether `serve-demo --warm` is still rendering, read by the signal handler.
private final class WarmingFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isOn: Bool { value.load(ordering: .relaxed) }
    func set(_ on: Bool) { value.store(on, ordering: .relaxed) }
}
