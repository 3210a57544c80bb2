import ArgumentParser
import GalleryKit

extension ThumbnailFormat: ExpressibleByArgument {}

/// How thumbnails are encoded, shared by `run` and `thumbnail`.
struct EncodingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Thumbnail format: auto (PNG when the image has alpha, else JPEG), jpeg, png or webp.",
                               valueName: "format"))
    var format: ThumbnailFormat = .auto

    @Option(help: "JPEG quality (1-100).")
    var quality: Int = 85

    @Option(name: .customLong("webp-quality"), help: "WebP quality (0-100); the default matches JPEG 85's fidelity in fewer bytes.")
    var webpQuality: Int = 85

    func validate() throws {
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be between 1 and 100") }
        guard (0...100).contains(webpQuality) else { throw ValidationError("--webp-quality must be between 0 and 100") }
    }
}
