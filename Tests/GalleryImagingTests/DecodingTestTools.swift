import Foundation
import GalleryImaging
import GalleryTestSupport

/// Shared fixtures for the decoding tests: real tools (jpegtran, djpeg, ImageMagick) run on real
/// files, and a large photo built once from the corpus.
enum DecodingFixtures {
    struct ToolFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs a command-line tool and returns its standard output.
    static func run(_ tool: String, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return [UInt8](data)
    }

    /// A real photo, the corpus' Landscape_1 (1800x1200), as a progressive JPEG made by jpegtran.
    static func progressiveLandscape() throws -> [UInt8] {
        try run("jpegtran", ["-progressive", "-copy", "none", Corpus.path("exif-orientation/Landscape_1.jpg")])
    }

    /// Landscape_1 re-encoded by libjpeg's own tools: greyscale progressive (jpegtran) and 4:4:4
    /// progressive (djpeg | cjpeg -sample 1x1). With no subsampled chroma, the 1/8 output reads
    /// only DC coefficients. With `dcFirst`, a scan script sends the full-precision DC first
    /// (libjpeg's standard script refines the DC late, in scan 5).
    static func progressiveLandscapeGrey(dcFirst: Bool) throws -> [UInt8] {
        let script = dcFirst ? ["-scans", try scanScript("0: 0 0 0 0;\n0: 1 5 0 0;\n0: 6 63 0 0;\n")] : ["-progressive"]
        return try run("jpegtran", ["-grayscale", "-copy", "none"] + script
                       + [Corpus.path("exif-orientation/Landscape_1.jpg")])
    }

    static func progressiveLandscape444(dcFirst: Bool) throws -> [UInt8] {
        let script = dcFirst
            ? "-scans '\(try scanScript("0 1 2: 0 0 0 0;\n0: 1 63 0 0;\n1: 1 63 0 0;\n2: 1 63 0 0;\n"))'"
            : "-progressive"
        return try run("sh", ["-c", "djpeg '\(Corpus.path("exif-orientation/Landscape_1.jpg"))' | cjpeg -sample 1x1 -quality 90 \(script)"])
    }

    /// Landscape_1 (4:2:0) made progressive with the full-precision DC of all components in the first
    /// scan, then the AC bands of each component.
    static func progressiveLandscape420DCFirst() throws -> [UInt8] {
        let script = try scanScript("0 1 2: 0 0 0 0;\n0: 1 5 0 0;\n2: 1 63 0 0;\n1: 1 63 0 0;\n0: 6 63 0 0;\n")
        return try run("jpegtran", ["-copy", "none", "-scans", script, Corpus.path("exif-orientation/Landscape_1.jpg")])
    }

    /// Writes a jpegtran/cjpeg scan script to a temporary file and returns its path.
    private static func scanScript(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("fg-scans-\(UUID().uuidString).txt").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A 3600x2400 photo: Landscape_1 tiled 2x2, encoded by our encoder (baseline or progressive).
    /// Built once per test process.
    static func largePhoto(progressive: Bool) throws -> [UInt8] {
        try (progressive ? largeProgressive : largeBaseline).get()
    }

    private static let largeBaseline = Result { try makeLargePhoto(progressive: false) }
    private static let largeProgressive = Result { try makeLargePhoto(progressive: true) }

    private static func makeLargePhoto(progressive: Bool) throws -> [UInt8] {
        let photo = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg")).bitmap
        let big = tiled(photo, columns: 2, rows: 2)
        return try ImageEncoder.encodeJPEG(big, quality: 90, progressive: progressive)
    }

    /// How many pixel bytes differ (Int.max when the shapes differ). Keeps failure output short,
    /// unlike comparing bitmaps with == inside #expect.
    static func differingBytes(_ a: Bitmap, _ b: Bitmap) -> Int {
        guard a.width == b.width, a.height == b.height, a.format == b.format else { return .max }
        var count = 0
        for y in 0..<a.height {
            for i in 0..<(a.width * a.format.channels)
            where a.pixels[y * a.bytesPerRow + i] != b.pixels[y * b.bytesPerRow + i] {
                count += 1
            }
        }
        return count
    }

    static func tiled(_ tile: Bitmap, columns: Int, rows: Int) -> Bitmap {
        let rowBytes = tile.width * tile.format.channels
        var pixels = [UInt8]()
        pixels.reserveCapacity(rowBytes * columns * tile.height * rows)
        for _ in 0..<rows {
            for y in 0..<tile.height {
                let line = tile.pixels[(y * tile.bytesPerRow)..<(y * tile.bytesPerRow + rowBytes)]
                for _ in 0..<columns { pixels.append(contentsOf: line) }
            }
        }
        return Bitmap(width: tile.width * columns, height: tile.height * rows, format: tile.format, pixels: pixels)
    }

    /// Every `stride`-th pixel of every `stride`-th row, starting at (0, 0).
    static func subsampled(_ image: Bitmap, stride: Int) -> Bitmap {
        let ch = image.format.channels
        let (w, h) = ((image.width + stride - 1) / stride, (image.height + stride - 1) / stride)
        var pixels = [UInt8]()
        pixels.reserveCapacity(w * h * ch)
        for gy in 0..<h {
            for gx in 0..<w {
                let at = gy * stride * image.bytesPerRow + gx * stride * ch
                pixels.append(contentsOf: image.pixels[at..<(at + ch)])
            }
        }
        return Bitmap(width: w, height: h, format: image.format, pixels: pixels)
    }

    /// How close a codec-reduced decode comes, as a thumbnail, to an exact area average of the full
    /// decode `full`: PSNR of the resampled bitmap (`raw`) and of the thumbnail as delivered, encoded
    /// JPEG Q85 and decoded again (`encoded`, what Scripts/bench-dc-scans measures).
    static func thumbnailPSNR(_ reduced: Bitmap, full: Bitmap, longestEdge: Int) throws -> (raw: Double, encoded: Double) {
        let size = targetSize(forSourceWidth: full.width, height: full.height, longestEdge: longestEdge)
        let reference = Resampler(filter: .area).scale(full, width: size.width, height: size.height)
        let thumbnail = Resampler.default.scale(reduced, width: size.width, height: size.height)
        let encoded = try ImageDecoder.decode(ImageEncoder.encodeJPEG(thumbnail, quality: 85), name: "thumbnail").bitmap
        return (psnr(thumbnail, reference), psnr(encoded, reference))
    }

    /// Peak signal-to-noise ratio in dB between two bitmaps of the same shape.
    static func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.format == b.format)
        var squared = 0.0
        for y in 0..<a.height {
            for i in 0..<(a.width * a.format.channels) {
                let d = Double(a.pixels[y * a.bytesPerRow + i]) - Double(b.pixels[y * b.bytesPerRow + i])
                squared += d * d
            }
        }
        let mse = squared / Double(a.width * a.height * a.format.channels)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
