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
            Quick start:  fetch-gallery --pages 5 --out gallery
            (with no --api, a built-in demo catalogue of real photographs is served on 127.0.0.1 and used).
            Then open gallery/index.html. See 'fetch-gallery help run' for every option of the main job.

            Exit status: 0 all done; 1 some photos or pages failed; 2 usage error; 3 the source could not \
            be read at all; 130 interrupted.
            """,
        subcommands: [GalleryCommand.self, ThumbnailCommand.self, DownloadCommand.self, ServeDemoCommand.self],
        defaultSubcommand: GalleryCommand.self
    )

    /// ArgumentParser exits 64 (EX_USAGE) on bad arguments; ours documents 2, as most Unix tools do.
    static func main() async {
        // Pixel buffers are megabytes and of every size. glibc's default (a dynamic mmap threshold
        // that climbs to 32 MB) serves them from the heap, whose fragments it keeps, so peak memory
        // crept up with the number of photos (~200 MB at 1,000). Above 1 MiB, mmap them: freed
        // buffers go straight back to the kernel and memory stays flat.
        _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, 1 << 20)
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

/// glibc's `mallopt(int, int)`; `<malloc.h>` is not part of Swift's Glibc module.
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
