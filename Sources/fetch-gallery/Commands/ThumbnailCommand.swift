import ArgumentParser
import GalleryKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `fetch-gallery thumbnail FILE... --out DIR`: thumbnails of local files, one bad file never stops the rest.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Make thumbnails of local JPEG, PNG, WebP, GIF, HEIC and AVIF files.",
        discussion: """
            Writes DIR/<name>.jpg for each input (DIR/<name>.png when the image has alpha; .png or .webp \
            for every input with --format png, webp or avif; one file per format with --format avif,jpeg), upright \
            (EXIF orientation applied), with the longest edge --size pixels (never upscaled). \
            A file that cannot be read prints one line on stderr naming it and the reason; the others go on.
            Exit status: 0 when every file succeeded, 1 when any failed, 2 for a usage error.
            """
    )

    @Argument(help: "Image files (JPEG, PNG, WebP, GIF, HEIC or AVIF; the format is read from the bytes, not the name).")
    var files: [String]

    @Option(name: .shortAndLong, help: "Folder for the thumbnails (created if missing).")
    var out: String

    @Option(help: "Longest edge of each thumbnail, in pixels.")
    var size: Int = 256

    @OptionGroup var encoding: EncodingOptions

    @Option(help: "Files decoded at once (default: the number of cores). 1 is single-threaded.")
    var jobs: Int = System.coreCount

    @Option(help: "Refuse images with more pixels than this (a decompression-bomb guard).")
    var maxPixels: Int = 100_000_000

    @Flag(help: ArgumentHelp("Decode without the codecs' shortcuts (DC-only progressive JPEG, early PNG passes, "
                             + "row reduction): the plain paths, for comparisons (Scripts/bench-dc-scans).",
                             visibility: .hidden))
    var noFastPaths = false

    @Option(help: ArgumentHelp("Encode each thumbnail this many times (the last is written): the encode's CPU is the "
                               + "difference between two runs (Scripts/bench-avif).", visibility: .hidden))
    var encodeRepeat: Int = 1

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image file") }
        guard size > 0 else { throw ValidationError("--size must be at least 1") }
        guard jobs > 0 else { throw ValidationError("--jobs must be at least 1") }
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be at least 1") }
        guard encodeRepeat > 0 else { throw ValidationError("--encode-repeat must be at least 1") }
    }

    func run() throws {
        let thumbnailer = Thumbnailer(longestEdge: size, jpegQuality: encoding.quality, format: encoding.format.primary,
                                      webpQuality: encoding.webpQuality, avifQuality: encoding.avifQuality,
                                      avifSpeed: encoding.avifSpeed, decodeOptions: DecodeOptions(maxPixels: maxPixels, useFastPaths: !noFastPaths))
        let names = OutputNames.unique(for: files)
        let failures = Atomic<Int>(0)
        let outDir = out
        let inputs = files
        let repeats = encodeRepeat
        let extras = encoding.format.extras
        ParallelWork.run(count: inputs.count, workers: jobs) { i in
            do {
                var image = try thumbnailer.thumbnail(fileAt: inputs[i])
                if repeats > 1 {
                    let bitmap = thumbnailer.render(try ImageDecoder.decode(fileAt: inputs[i]))
                    for _ in 1..<repeats { image = try thumbnailer.encode(bitmap, name: inputs[i]) }
                }
                try AtomicFile.write(image.bytes, to: "\(outDir)/\(names[i]).\(image.fileExtension)")
                for format in extras {  // --format avif,jpeg: every format, each from its own decode
                    var other = thumbnailer
                    other.format = format
                    let more = try other.thumbnail(fileAt: inputs[i])
                    try AtomicFile.write(more.bytes, to: "\(outDir)/\(names[i]).\(more.fileExtension)")
                }
            } catch {
                failures.add(1, ordering: .relaxed)
                StandardError.line("fetch-gallery: \(error)")
            }
        }
        if failures.load(ordering: .relaxed) > 0 { throw GalleryFailure(.failures) }
    }
}

/// Output base names: each input's file name without its extension, made unique by a `-2`, `-3`
/// suffix in argument order so two inputs called `x.jpg` in different folders both survive (and a third
/// input already called `x-2.jpg` gets `x-2-2`, not the second one's name).
enum OutputNames {
    static func unique(for paths: [String]) -> [String] {
        var taken: Set<String> = []
        var suffixes: [String: Int] = [:]
        return paths.map { path in
            let file = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? "image"
            var base = file
            if let dot = file.lastIndex(of: "."), dot != file.startIndex { base = String(file[..<dot]) }
            var name = base
            var n = suffixes[base] ?? 1
            while !taken.insert(name).inserted {
                n += 1
                name = "\(base)-\(n)"
            }
            suffixes[base] = n
            return name
        }
    }
}
