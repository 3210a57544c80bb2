import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// The per-image work on real files from the corpus: sizes, the white border, alpha flattened onto white,
/// the filters decided from the header and img2dataset's messages.
@Suite struct DatasetImageProcessorTests {
    func process(_ bytes: [UInt8], _ edit: (inout DatasetImageOptions) -> Void = { _ in }) -> Result<DatasetImageProcessor.Output, ImageRefusal> {
        var options = DatasetImageOptions()
        edit(&options)
        return DatasetImageProcessor(options: options).process(bytes)
    }

    @Test func borderIsASquareWithWhiteBars() throws {
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")  // 227 x 149
        let out = try process(photo).get()
        #expect(out.width == 256 && out.height == 256 && out.originalWidth == 227 && out.originalHeight == 149)
        let decoded = try ImageDecoder.decode(out.bytes, name: "out")
        #expect(decoded.bitmap.width == 256 && decoded.bitmap.height == 256)
        // Top-left and bottom-right corners are in the padding: white (JPEG noise aside).
        for (x, y) in [(0, 0), (255, 255), (128, 2)] {
            for c in 0..<decoded.bitmap.format.channels { #expect(decoded.bitmap[x, y, c] >= 250, "(\(x),\(y))") }
        }
    }

    @Test func keepRatioAndCenterCropSizes() throws {
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let keep = try process(photo) { $0.resizeMode = .keepRatio }.get()
        #expect(keep.height == 256 && keep.width == 390)  // round(227 * 256/149) = 390
        let largest = try process(photo) { $0.resizeMode = .keepRatioLargest; $0.imageSize = 100 }.get()
        #expect(largest.width == 100 && largest.height == 66)
        let crop = try process(photo) { $0.resizeMode = .centerCrop; $0.imageSize = 64; $0.encodeFormat = .png }.get()
        #expect(crop.width == 64 && crop.height == 64)
        #expect(ImageFormat.sniff(crop.bytes) == .png)
    }

    /// 227x149 to 100x66 decodes at 1/2 (114x75, whose last column and row stand for one source pixel each):
    /// the resize spans 113.5x74.5 of them, as the thumbnails do, rather than stretching the picture over all.
    @Test func aDCTScaledDecodeIsResizedOverThePixelsItSpans() throws {
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let out = try process(photo) { $0.resizeMode = .keepRatioLargest; $0.imageSize = 100; $0.encodeFormat = .png }.get()
        let pixels = try ImageDecoder.decode(out.bytes, name: "out").bitmap.pixels
        var options = DecodeOptions()
        options.target = .covering(width: 100, height: 66)
        let half = try ImageDecoder.decode(photo, name: "in", options: options)
        #expect(half.bitmap.width == 114 && half.bitmap.height == 75)
        let spanned = Resampler(filter: .area).scale(half.bitmap, width: 100, height: 66, extent: (113.5, 74.5)).pixels
        let stretched = Resampler(filter: .area).scale(half.bitmap, width: 100, height: 66).pixels
        let (matchesSpanned, matchesStretched) = (pixels == spanned, pixels == stretched)
        #expect(matchesSpanned && !matchesStretched)
    }

    @Test func filtersAreDecidedFromTheHeaderWithImg2datasetsMessages() throws {
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        #expect(process(photo) { $0.minImageSize = 150 }.failureMessage == "image too small")
        #expect(process(photo) { $0.maxImageArea = 227 * 149 - 1 }.failureMessage == "image area too large")
        #expect(process(photo) { $0.maxAspectRatio = 1.5 }.failureMessage == "aspect ratio too large")
        #expect(process(photo) { $0.maxAspectRatio = 1.6 }.failureMessage == nil)
        #expect(process(Array("<html>not an image</html>".utf8)).failureMessage == "Image decoding error")
        #expect(process(Array(photo.prefix(200))).failureMessage == "Image decoding error")
    }

    @Test func alphaIsFlattenedOntoWhite() throws {
        let png = try Corpus.bytes("png-suite/basn6a08.png")  // RGBA, 32 x 32
        let out = try process(png) { $0.resizeMode = .no; $0.encodeFormat = .png }.get()
        let decoded = try ImageDecoder.decode(out.bytes, name: "out")
        #expect(!decoded.bitmap.format.hasAlpha)
        let source = try ImageDecoder.decode(png, name: "in").bitmap
        let a = Double(source[0, 0, 3]), r = Double(source[0, 0, 0])
        #expect(abs(Double(decoded.bitmap[0, 0, 0]) - (a / 255 * r + 255 - a)) <= 1)
    }

    @Test func skipReencodeKeepsTheBytesOnlyWhenNothingChanges() throws {
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let kept = try process(photo) { $0.skipReencode = true; $0.resizeMode = .no }.get()
        #expect(kept.bytes == photo)
        let resized = try process(photo) { $0.skipReencode = true }.get()
        #expect(resized.bytes != photo && resized.width == 256)
    }
}

extension Result where Failure == ImageRefusal {
    var failureMessage: String? { if case .failure(let r) = self { r.message } else { nil } }
}
