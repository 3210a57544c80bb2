import ArgumentParser
import GalleryKit
#if canImport(Glibc)
import Glibc
#endif

@main
struct FetchGallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch-gallery",
        abstract: "Download photo pages, fetch every photo concurrently, and build a thumbnail gallery folder.",
        discussion: """
            Quick start:  fetch-gallery --pages 5 --out gallery
            (with no --api, a built-in demo catalogue of real photographs is served on 127.0.0.1 and used).
            Then open gallery/index.html. See 'fetch-gallery help run' for every option of the main job.

            Exit status: 0 all done; 1 some photos or pages failed; 2 usage error; 3 the source could not \
            be read at all; 130 interrupted (Ctrl-C), 143 stopped by SIGTERM.
            """,
        subcommands: [GalleryCommand.self, PlanCommand.self, MergeCommand.self, ThumbnailCommand.self, DownloadCommand.self, DatasetCommand.self, ServeCommand.self, ServeDemoCommand.self],
        defaultSubcommand: GalleryCommand.self
    )

    /// ArgumentParser exits 64 (EX_USAGE) on bad arguments; ours documents 2, as most Unix tools do.
    static func main() async {
        // What the command's messages start with: `fetch-gallery` for the main job, else `fetch-gallery plan` ...
        var prefix = "fetch-gallery"
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "dataset" { arguments = DatasetArguments.normalize(arguments) }
            var files: [String]?
            if arguments.first == "thumbnail", let split = ThumbnailArguments.split(arguments) {
                (arguments, files) = (split.parsed, split.files)
            }
            var command = try parseAsRoot(arguments)
            if var thumbnail = command as? ThumbnailCommand, let files {
                thumbnail.files = files
                command = thumbnail
            }
            if !(command is GalleryCommand), let name = type(of: command).configuration.commandName, name != "fetch-gallery" {
                prefix += " " + name
            }
            // Before run() hops to the cooperative pool: its threads' first mallocs would each make an arena.
            // The gallery's workers get an arena each (they waited on one arena's lock). A dataset run keeps one
            // for all: it holds large bodies and bitmaps as the gallery does, its CPU a photo stayed flat from 1
            // to 16 workers with one arena, and an arena each raised Scripts/bench-dataset's PNG-heavy peak to
            // 146 MB against 134, CPU the same.
            if let gallery = command as? GalleryCommand {
                System.tuneMalloc(arenas: gallery.workers)
            } else if command is DatasetCommand {
                System.tuneMalloc(arenas: 1)
            } else if command is DownloadCommand {
                // glibc's own thresholds mapped each transfer's 128 KiB receive buffer, or gave it back from the
                // top of the heap, and the next transfer faulted it in again: 0.024 ms a photo of page faults.
                // With the gallery's settings 0.128 against 0.153 CPU-ms a photo (2,000 photos, 6 rounds).
                System.tuneMalloc(arenas: System.coreCount)
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let ending as any GalleryEnding {
            // How the command ended, as GalleryKit says: its exit status, and the line saying why.
            if let message = ending.message {
                StandardError.line("\(prefix): \(message)")
            }
            Glibc.exit(ending.outcome.exitStatus)
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
