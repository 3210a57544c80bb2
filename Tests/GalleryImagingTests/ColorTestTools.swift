import Foundation
import GalleryImaging
import GalleryTestSupport

/// Photos converted to test colour profiles by LittleCMS's `jpgicc` (JPEG) and ImageMagick's
/// `-profile` (PNG, and WebP through cwebp), and the colour difference the tests measure.
enum ColorFixtures {
    /// The profiles in `Fixtures/icc` (made by its `make.sh`).
    enum Profile: String, CaseIterable, CustomStringConvertible {
        case adobeRGB = "adobe-rgb-compatible"
        case displayP3 = "display-p3-compatible"
        /// eciRGB v2's primaries and white (D50) on the CIE L* tone curve.
        case lstarRGB = "lstar-rgb"
        case grayGamma18 = "gray-gamma18"
        /// A CMYK profile darker and warmer than the naive conversion (only for CMYK tests).
        static let cmykWarm = "cmyk-warm"

        var path: String { ColorFixtures.profilePath(rawValue) }
        var bytes: [UInt8] { get throws { try ColorFixtures.profile(rawValue) } }
        var isGray: Bool { self == .grayGamma18 }
        var description: String {
            switch self {
            case .adobeRGB: "Adobe RGB"
            case .displayP3: "Display P3"
            case .lstarRGB: "L*-RGB"
            case .grayGamma18: "grey 1.8"
            }
        }
    }

    static func profilePath(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/icc/\(name).icc").path
    }

    static func profile(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: profilePath(name))))
    }

    static let srgbProfilePath = profilePath("srgb")

    /// Real photos, sRGB without a profile: the corpus' colourful test image and saturated photos of
    /// the demo catalogue (muted ones such as the corpus' landscapes move too little in Display P3
    /// to show anything: a mean Delta E of 0.9 to 1.5 unconverted).
    static let photos = ["libjpeg-turbo/testorig.jpg", "demo:colorful-cups.jpg", "demo:ladybird.jpg", "demo:fallen-leaf.jpg"]

    /// The path of a corpus file, or with `demo:` of a demo catalogue photo (`Sources/GalleryDemo`).
    static func path(_ photo: String) throws -> String {
        guard photo.hasPrefix("demo:") else { return try Corpus.path(photo) }
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/GalleryDemo/Resources/demo-photos")
            .appendingPathComponent(String(photo.dropFirst(5))).path
        guard FileManager.default.isReadableFile(atPath: path) else { throw TestSupportError.corpusFileMissing(path: path) }
        return path
    }

    static func bytes(_ photo: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try path(photo))))
    }

    /// WebP stores RGB only, so it is tested with the RGB profiles.
    enum Container: String, CaseIterable { case jpeg, png, webp }

    /// `photo` converted from sRGB to `profile`, the profile embedded.
    static func converted(_ photo: String, to profile: Profile, as container: Container) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fg-color-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent(container == .jpeg ? "out.jpg" : container == .png ? "out.png" : "out.webp").path
        let source = try path(photo)
        switch container {
        case .jpeg:
            _ = try DecodingFixtures.run("jpgicc", ["-e", "-q95", "-o\(profile.path)", source, out])
        case .png:
            _ = try DecodingFixtures.run("convert", [source, "-profile", srgbProfilePath, "-profile", profile.path, out])
        case .webp:
            // The PNG conversion, then cwebp carrying its iCCP over as the WebP ICCP chunk.
            let png = folder.appendingPathComponent("step.png").path
            _ = try DecodingFixtures.run("convert", [source, "-profile", srgbProfilePath, "-profile", profile.path, png])
            _ = try DecodingFixtures.run("cwebp", ["-quiet", "-q", "95", "-metadata", "icc", png, "-o", out])
        }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// A JPEG with `profile` put in an APP2 `ICC_PROFILE` segment after SOI, pixels unchanged (to
    /// attach wrong or broken profiles).
    static func withICCSegment(_ jpeg: [UInt8], profile: [UInt8]) -> [UInt8] {
        var segment: [UInt8] = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        let length = segment.count + 2
        segment = [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + segment
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }

    /// 256-pixel thumbnail, as the gallery makes it.
    static func thumbnail(_ bytes: [UInt8], readingProfiles: Bool = true) throws -> Bitmap {
        let thumbnailer = Thumbnailer(longestEdge: 256, decodeOptions: DecodeOptions(readsColorProfiles: readingProfiles))
        return try bytes.withUnsafeBytes { raw in try thumbnailer.render(raw, name: "test") }
    }
}

/// Colour difference between two sRGB bitmaps of one size: CIE76 Delta E (Euclidean distance in
/// CIELAB, D65) between the averages of 8x8-pixel blocks, the averages taken in linear light. With
/// `lightnessOnly` (a grey image against a colour one) only L* counts.
enum DeltaE {
    static func meanOfBlocks(_ a: Bitmap, _ b: Bitmap, block: Int = 8, lightnessOnly: Bool = false) -> Double {
        precondition(a.width == b.width && a.height == b.height, "Delta E needs bitmaps of one size")
        var total = 0.0, count = 0
        for by in stride(from: 0, to: a.height, by: block) {
            for bx in stride(from: 0, to: a.width, by: block) {
                let (la, lb) = (lab(average(a, bx, by, block)), lab(average(b, bx, by, block)))
                let dl = la.0 - lb.0, da = la.1 - lb.1, db = la.2 - lb.2
                total += lightnessOnly ? abs(dl) : (dl * dl + da * da + db * db).squareRoot()
                count += 1
            }
        }
        return total / Double(count)
    }

    /// Mean linear RGB of one block (grey counts as R = G = B).
    private static func average(_ bitmap: Bitmap, _ x0: Int, _ y0: Int, _ size: Int) -> (Double, Double, Double) {
        var sum = (0.0, 0.0, 0.0), n = 0.0
        let grey = bitmap.format.channels < 3
        for y in y0..<min(y0 + size, bitmap.height) {
            for x in x0..<min(x0 + size, bitmap.width) {
                let r = linear(bitmap[x, y, 0])
                let g = grey ? r : linear(bitmap[x, y, 1]), b = grey ? r : linear(bitmap[x, y, 2])
                sum = (sum.0 + r, sum.1 + g, sum.2 + b)
                n += 1
            }
        }
        return (sum.0 / n, sum.1 / n, sum.2 / n)
    }

    private static func linear(_ v: UInt8) -> Double {
        let c = Double(v) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Linear sRGB to CIELAB (D65 white).
    private static func lab(_ rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        let (r, g, b) = rgb
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }
}
