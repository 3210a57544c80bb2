import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// AVIF out (libheif with aom): what it writes decodes back, through our decoder and through libavif's own
/// avifdec, to the same size and look; alpha is kept, grey becomes RGB; the thumbnailer writes it.
@Suite("Encoding: AVIF")
struct EncodingAVIFTests {
    static func photo() throws -> Bitmap {
        try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg"),
                                options: DecodeOptions(target: .longestEdge(300))).bitmap
    }

    @Test func rgbRoundTripsAtHighFidelity() throws {
        let source = try Self.photo()
        let bytes = try ImageEncoder.encodeAVIF(source)
        #expect(ImageFormat.sniff(bytes) == .avif)
        let back = try ImageDecoder.decode(bytes, name: "round.avif").bitmap
        #expect(back.width == source.width && back.height == source.height && back.format == .rgb8)
        let psnr = DecodingFixtures.psnr(back, source)
        #expect(psnr > 33, "PSNR \(psnr)")
        // Lower quality, fewer bytes; a bad parameter is an error, not a crash.
        #expect(try ImageEncoder.encodeAVIF(source, quality: 30).count < bytes.count)
        #expect(throws: EncodeError.self) { try ImageEncoder.encodeAVIF(source, quality: 101) }
        #expect(throws: EncodeError.self) { try ImageEncoder.encodeAVIF(source, speed: 10) }
    }

    /// libavif's decoder (another implementation than the one we decode with) reads the file too.
    @Test func libavifReadsIt() throws {
        let source = try Self.photo()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fg-avif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (avif, png) = (folder.appendingPathComponent("t.avif").path, folder.appendingPathComponent("t.png").path)
        try Data(try ImageEncoder.encodeAVIF(source)).write(to: URL(fileURLWithPath: avif))
        _ = try DecodingFixtures.run("avifdec", [avif, png])
        let back = try ImageDecoder.decode(fileAt: png).bitmap
        #expect(back.width == source.width && back.height == source.height)
        #expect(DecodingFixtures.psnr(back, source) > 33)
    }

    @Test func alphaIsKeptAndGreyBecomesRGB() throws {
        let rgba = try ImageDecoder.decode(fileAt: Corpus.path("png-suite/basn6a08.png")).bitmap
        let back = try ImageDecoder.decode(ImageEncoder.encodeAVIF(rgba, quality: 90), name: "alpha.avif").bitmap
        #expect(back.format == .rgba8)
        var worst = 0
        for y in 0..<rgba.height { for x in 0..<rgba.width { worst = max(worst, abs(Int(back[x, y, 3]) - Int(rgba[x, y, 3]))) } }
        #expect(worst <= 8, "alpha off by \(worst)")
        let grey = try ImageDecoder.decode(fileAt: Corpus.path("derived/testorig-grayscale.jpg")).bitmap
        #expect(grey.format == .gray8)
        let greyBack = try ImageDecoder.decode(ImageEncoder.encodeAVIF(grey), name: "grey.avif").bitmap
        #expect(greyBack.format == .rgb8 && greyBack.width == grey.width)
        var off = 0
        for y in 0..<grey.height { for x in 0..<grey.width { off = max(off, abs(Int(greyBack[x, y, 1]) - Int(grey[x, y, 0]))) } }
        #expect(off < 48, "grey off by \(off)")
    }

    @Test func thumbnailerWritesAVIF() throws {
        let thumbnailer = Thumbnailer(longestEdge: 200, format: .avif)
        let image = try thumbnailer.thumbnail(fileAt: Corpus.path("heif/photo.heic"))
        #expect(image.format == .avif && image.fileExtension == "avif")
        let back = try ImageDecoder.decode(image.bytes, name: "thumb.avif")
        #expect(back.bitmap.width == 200 && back.bitmap.height == 133)
        #expect(ThumbnailFormat.avif.fixedExtension == "avif")
    }
}
