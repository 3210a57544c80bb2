import GalleryImaging
import GalleryTestSupport
import Testing

@Suite struct ThumbnailerTests {
    let thumbnailer = Thumbnailer(longestEdge: 256)

    /// Mean absolute difference per channel between two bitmaps of the same size and format.
    func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.format == b.format)
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width * a.format.channels {
                total += abs(Int(a.pixels[y * a.bytesPerRow + x]) - Int(b.pixels[y * b.bytesPerRow + x]))
            }
        }
        return Double(total) / Double(a.width * a.height * a.format.channels)
    }

    @Test("every EXIF orientation comes out upright, on pixels", arguments: ["Landscape", "Portrait"], 0...8)
    func orientationOnPixels(kind: String, value: Int) throws {
        let upright = try thumbnailer.render(ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/\(kind)_1.jpg"),
                                                                  options: DecodeOptions(target: .longestEdge(256))))
        let bytes = try Corpus.bytes("exif-orientation/\(kind)_\(value).jpg")
        let thumb = try bytes.withUnsafeBytes { raw in try thumbnailer.render(raw, name: "\(kind)_\(value)") }
        #expect(thumb.width == upright.width && thumb.height == upright.height)
        #expect(kind == "Landscape" ? (thumb.width, thumb.height) == (256, 171) : (thumb.width, thumb.height) == (171, 256))
        // Same photo stored eight ways: once upright, all thumbnails nearly match. A wrong or doubled
        // transform moves the big features (and the printed digit) and gives a large difference.
        #expect(meanDifference(thumb, upright) < 6, "orientation \(value) not applied exactly once")
    }

    @Test("a wrongly oriented thumbnail is detected by the pixel check")
    func pixelCheckHasTeeth() throws {
        let upright = try thumbnailer.render(ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg"),
                                                                  options: DecodeOptions(target: .longestEdge(256))))
        #expect(meanDifference(upright.oriented(.down), upright) > 20)
        #expect(meanDifference(upright.oriented(.upMirrored), upright) > 20)
    }

    @Test("images with alpha become PNG, others JPEG at the exact size")
    func formats() throws {
        let png = try thumbnailer.thumbnail(fileAt: Corpus.path("png-suite/basn6a08.png"))
        #expect(png.format == .png && png.fileExtension == "png")
        let jpeg = try thumbnailer.thumbnail(fileAt: Corpus.path("libjpeg-turbo/testorig.jpg"))
        #expect(jpeg.format == .jpeg && jpeg.fileExtension == "jpg")
        let decoded = try ImageDecoder.decode(jpeg.bytes, name: "thumb")
        #expect((decoded.bitmap.width, decoded.bitmap.height) == (227, 149))
    }

    @Test("small sources are never upscaled")
    func noUpscale() throws {
        let thumb = try thumbnailer.thumbnail(fileAt: Corpus.path("png-suite/basn2c08.png"))
        let decoded = try ImageDecoder.decode(thumb.bytes, name: "thumb")
        #expect((decoded.bitmap.width, decoded.bitmap.height) == (32, 32))
    }

    @Test("bad inputs give a typed error naming the input")
    func errors() throws {
        #expect(throws: ImagingError.decode(.notAnImage(name: "page.html"))) {
            try thumbnailer.thumbnail(Array("<html><body>404</body></html>".utf8), name: "page.html")
        }
        do {
            _ = try thumbnailer.thumbnail(fileAt: "/nonexistent/photo.jpg")
            Issue.record("expected an error")
        } catch {
            #expect(error.name == "/nonexistent/photo.jpg")
            #expect(error.description.contains("/nonexistent/photo.jpg"))
        }
    }
}
