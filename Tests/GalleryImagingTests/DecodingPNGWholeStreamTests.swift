import Foundation
@testable import GalleryImaging
import GalleryTestSupport
import Testing

/// PNGs are inflated in one call (libdeflate), unfiltered and expanded by our own code
/// instead of libpng's rows. Every PNG of the corpus, and photographs in every 8-bit layout, must
/// come out byte for byte as libpng's rows give them, at full size and box-reduced, and the files
/// libpng rejects must still be rejected with the same error.
@Suite("Decoding: PNG whole-stream inflate against libpng's rows")
struct DecodingPNGWholeStreamTests {
    static let pngRows = Corpus.entries.filter { $0.file.hasSuffix(".png") }

    typealias Outcome = (image: DecodedImage, wholeStream: Bool)

    static func decode(_ bytes: [UInt8], _ name: String, _ options: DecodeOptions,
                       _ inflation: PNGDecoder.Inflation) -> Result<Outcome, DecodeError> {
        bytes.withUnsafeBytes { raw in
            Result { () throws(DecodeError) -> Outcome in
                try PNGDecoder.decode(raw, name: name, options: options, inflation: inflation)
            }
        }
    }

    /// Decodes `bytes` both ways and checks that they agree; returns whether the whole-stream path ran.
    @discardableResult
    static func compare(_ bytes: [UInt8], _ name: String, _ options: DecodeOptions,
                        sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let rows = decode(bytes, name, options, .libpngRows)
        let whole = decode(bytes, name, options, .wholeStreamWhenItFits)
        switch (rows, whole) {
        case (.success(let a), .success(let b)):
            #expect(!a.wholeStream, "\(name): libpngRows used the whole stream", sourceLocation: sourceLocation)
            #expect(a.image.bitmap.width == b.image.bitmap.width && a.image.bitmap.height == b.image.bitmap.height
                    && a.image.bitmap.format == b.image.bitmap.format, "\(name): geometry differs", sourceLocation: sourceLocation)
            #expect(a.image.scaleDenominator == b.image.scaleDenominator, sourceLocation: sourceLocation)
            let differing = DecodingFixtures.differingBytes(a.image.bitmap, b.image.bitmap)
            #expect(differing == 0, "\(name) (\(options.target)): \(differing) bytes differ from libpng's",
                    sourceLocation: sourceLocation)
            return b.wholeStream
        case (.failure(let a), .failure(let b)):
            #expect("\(a)" == "\(b)", "\(name): the errors differ", sourceLocation: sourceLocation)
            return false
        default:
            Issue.record("\(name): libpng's rows gave \(rows), the whole stream \(whole)", sourceLocation: sourceLocation)
            return false
        }
    }

    @Test(arguments: pngRows)
    func corpusFileMatchesLibpng(_ row: Corpus.Entry) throws {
        let bytes = try Corpus.bytes(row.file)
        // PngSuite's images are 32x32 (a few 1..40): 8 px keeps a box factor of 2. Interlaced ones
        // too: the passes put back together against libpng's own de-interlacing.
        for target in [DecodeTarget.fullSize, .longestEdge(8)] {
            let whole = Self.compare(bytes, row.file, DecodeOptions(target: target))
            if row.expect == "ok" {
                #expect(whole, "\(row.file) (\(target)) did not take the whole-stream path")
            }
        }
    }

    /// A photograph (1800x1200, libpng's adaptive filters: all five filter types) as grey, grey+alpha,
    /// RGB and RGBA: pixel sizes of 1 to 4 bytes, the SIMD filters included.
    @Test(arguments: [1, 2, 3, 4])
    func photographMatchesLibpng(channels: Int) throws {
        let rgb = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg")).bitmap
        var pixels = [UInt8](repeating: 0, count: rgb.width * rgb.height * channels)
        for y in 0..<rgb.height {
            for x in 0..<rgb.width {
                let (r, g, b) = (rgb[x, y, 0], rgb[x, y, 1], rgb[x, y, 2])
                let at = (y * rgb.width + x) * channels
                let alpha = UInt8(truncatingIfNeeded: x ^ y)
                switch channels {
                case 1: pixels[at] = g
                case 2: pixels[at] = g; pixels[at + 1] = alpha
                case 3: pixels[at] = r; pixels[at + 1] = g; pixels[at + 2] = b
                default: pixels[at] = r; pixels[at + 1] = g; pixels[at + 2] = b; pixels[at + 3] = alpha
                }
            }
        }
        let format: PixelFormat = [.gray8, .grayAlpha8, .rgb8, .rgba8][channels - 1]
        let png = try ImageEncoder.encodePNG(Bitmap(width: rgb.width, height: rgb.height, format: format, pixels: pixels))
        for target in [DecodeTarget.fullSize, .longestEdge(256), .longestEdge(600)] {
            #expect(Self.compare(png, "photo-\(channels).png", DecodeOptions(target: target)))
        }
    }

    static let layouts: [PNGFilterWriter.Layout] = [
        .init(colorType: 0, depth: 1), .init(colorType: 0, depth: 2), .init(colorType: 0, depth: 4),
        .init(colorType: 0, depth: 8), .init(colorType: 0, depth: 16), .init(colorType: 2, depth: 8),
        .init(colorType: 2, depth: 16), .init(colorType: 3, depth: 1), .init(colorType: 3, depth: 2),
        .init(colorType: 3, depth: 4), .init(colorType: 3, depth: 8), .init(colorType: 4, depth: 8),
        .init(colorType: 4, depth: 16), .init(colorType: 6, depth: 8), .init(colorType: 6, depth: 16),
        .init(colorType: 0, depth: 2, transparency: true), .init(colorType: 0, depth: 8, transparency: true),
        .init(colorType: 0, depth: 16, transparency: true), .init(colorType: 2, depth: 8, transparency: true),
        .init(colorType: 2, depth: 16, transparency: true), .init(colorType: 3, depth: 8, transparency: true),
        .init(colorType: 3, depth: 4, transparency: true),
    ]

    /// Every colour type and bit depth (pixels of 1 to 8 bytes), each of the five filters on every
    /// fifth row, photograph content, 301x203 px (odd sizes: partial bytes and blocks).
    @Test(arguments: layouts)
    func everyFilterAndLayoutMatchesLibpng(_ layout: PNGFilterWriter.Layout) throws {
        let photo = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg")).bitmap
        let png = PNGFilterWriter.png(photo, width: 301, height: 203, layout)
        for target in [DecodeTarget.fullSize, .longestEdge(64)] {
            #expect(Self.compare(png, "\(layout).png", DecodeOptions(target: target)))
        }
        // Long runs of one filter too (the SIMD loops carry state along a row and down the rows).
        for filter in 0..<5 {
            let single = PNGFilterWriter.png(photo, width: 301, height: 40, layout, filter: { _ in filter })
            #expect(Self.compare(single, "\(layout), filter \(filter).png", DecodeOptions(target: .fullSize)))
        }
    }

    /// The png fuzz target's kept inputs (Fixtures/fuzz-regressions), which it also decodes both ways.
    @Test func fuzzRegressionInputsMatchLibpng() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz-regressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files.count >= 3)
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            for target in [DecodeTarget.fullSize, .longestEdge(16), .covering(width: 40, height: 30)] {
                let whole = Self.compare(bytes, file, DecodeOptions(target: target))
                // png-whole-*: files the path must take, e.g. with a damaged chunk after the image data
                // (which neither reader looks at; the path once declined them).
                if file.hasPrefix("png-whole-") && target == .fullSize {
                    #expect(whole, "\(file) did not take the whole-stream path")
                }
            }
        }
    }

    /// Over the memory bound (here lowered through maxCodecMemory) the image is read through
    /// libpng's rows, with the same pixels.
    @Test func overTheMemoryBoundReadsRows() throws {
        let rgb = try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg")).bitmap
        let png = try ImageEncoder.encodePNG(rgb)
        // 1200 rows of 1 + 5400 bytes: 6.5 MB filtered.
        var options = DecodeOptions(target: .longestEdge(256))
        options.maxCodecMemory = 6_481_200 - 1
        #expect(!Self.compare(png, "photo.png", options))
        options.maxCodecMemory = 6_481_200
        #expect(Self.compare(png, "photo.png", options))
    }

    /// The default bound (png_internal.h): a filtered image of up to 64 MiB is inflated whole, a larger one
    /// is read through libpng's rows (a band of zlib at a time), so the whole stream never holds more than
    /// 64 MiB for one photo beside its mapped original. Grey, 8192 pixels wide: 8193 bytes a row.
    @Test func sixtyFourMebibytesIsTheWholeStreamsBound() throws {
        func png(rows: Int) -> [UInt8] {
            let data = [UInt8](repeating: 0, count: rows * 8193)  // filter byte 0, black pixels
            let header = PNGChunks.uint32(8192) + PNGChunks.uint32(UInt32(rows)) + [8, 0, 0, 0, 0]
            return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGChunks.chunk("IHDR", header)
                + PNGChunks.chunk("IDAT", PNGFilterWriter.storedZlib(data)) + PNGChunks.chunk("IEND", [])
        }
        let options = DecodeOptions(target: .longestEdge(256))
        let fits = 67_108_864 / 8193  // 8191 rows: 67,108,863 bytes
        for (rows, whole) in [(fits, true), (fits + 1, false)] {
            let outcome = try Self.decode(png(rows: rows), "grey-\(rows).png", options, .wholeStreamWhenItFits).get()
            #expect(outcome.wholeStream == whole, "\(rows) rows of 8193 bytes")
            #expect(outcome.image.sourceWidth == 8192 && outcome.image.sourceHeight == rows)
        }
    }
}
