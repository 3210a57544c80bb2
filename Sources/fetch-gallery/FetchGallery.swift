import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

@main
struct FetchGallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch-gallery",
        abstract: "Download photo pages, fetch every photo concurrently, and build a thumbnail gallery folder.",
        discussion: """
            Exit status: 0 all done, 1 some items failed, 2 usage error, 3 the source could not be read at all.
            """,
        subcommands: [ThumbnailCommand.self, DownloadCommand.self, ServeDemoCommand.self]
    )

    /// ArgumentParser exits 64 (EX_USAGE) on bad arguments; ours documents 2, as most Unix tools do.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = fullMessage(for: error)
                if !message.isEmpty { StandardError.line(message) }
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}
