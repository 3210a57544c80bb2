import ArgumentParser
import GalleryKit

extension ThumbnailFormat: ExpressibleByArgument {}

/// How thumbnails are encoded, shared by `run` and `thumbnail`.
struct EncodingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        Thumbnail format: auto (PNG when the image has alpha, else JPEG), jpeg, png, webp or avif; or several, \
        e.g. avif,jpeg: each thumbnail is written in every one, and the pages offer AVIF and WebP first with \
        the one of auto, jpeg or png as the fallback every browser shows.
        """, valueName: "formats"))
    var format: FormatList = FormatList(formats: [.auto])

    /// A comma-separated list of thumbnail formats.
    struct FormatList: ExpressibleByArgument {
        var formats: [ThumbnailFormat]

        init(formats: [ThumbnailFormat]) { self.formats = formats }

        init?(argument: String) {
            let parsed = argument.split(separator: ",").map { ThumbnailFormat(rawValue: $0.trimmingCharacters(in: .whitespaces).lowercased()) }
            guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) else { return nil }
            formats = parsed.compactMap { $0 }
        }

        /// The format of the `<img>` (and the only one, given alone).
        var primary: ThumbnailFormat { formats.count == 1 ? formats[0] : formats.first { !Self.modern.contains($0) } ?? .auto }
        /// The `<source>` formats, in the order given.
        var extras: [ThumbnailFormat] { formats.count == 1 ? [] : formats.filter { Self.modern.contains($0) } }
        static let modern: Set<ThumbnailFormat> = [.webp, .avif]

        /// Several formats: one of auto, jpeg or png, and webp and/or avif, each once.
        func validate() throws {
            guard formats.count > 1 else { return }
            guard Set(formats).count == formats.count, formats.filter({ !Self.modern.contains($0) }).count == 1 else {
                throw ValidationError("--format with several formats takes one of auto, jpeg or png (what every browser shows) and webp and/or avif, e.g. avif,jpeg")
            }
        }
    }

    @Option(help: "JPEG quality (1-100).")
    var quality: Int = 85

    @Option(name: .customLong("webp-quality"), help: "WebP quality (0-100); the default matches JPEG 85's fidelity in fewer bytes.")
    var webpQuality: Int = 85

    @Option(name: .customLong("avif-quality"), help: "AVIF quality (0-100).")
    var avifQuality: Int = 75

    @Option(name: .customLong("avif-speed"), help: ArgumentHelp("AVIF encoder speed (0-9, faster when higher).", visibility: .hidden))
    var avifSpeed: Int = 9

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") }
        guard (0...100).contains(webpQuality) else { throw ValidationError("--webp-quality must be between 0 and 100") }
        guard (0...100).contains(avifQuality) else { throw ValidationError("--avif-quality must be between 0 and 100") }
        guard (0...9).contains(avifSpeed) else { throw ValidationError("--avif-speed must be between 0 and 9") }
        try format.validate()
    }
}
