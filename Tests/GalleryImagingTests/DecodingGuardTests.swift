import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

/// Hostile or absurd inputs are refused from the header, quickly, with a typed error naming them.
@Suite("Decoding: guards and typed errors")
struct DecodingGuardTests {
    /// testorig.jpg with the SOF0 frame size patched to `width` x `height`.
    static func patchedSOF(width: Int, height: Int) throws -> [UInt8] {
        var bytes = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let sof = try #require((2..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        // FF C0, length (2), precision (1), height (2), width (2)
        bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    static func expectError(_ bytes: [UInt8], name: String, options: DecodeOptions = DecodeOptions(),
                            within limit: Duration = .milliseconds(500),
                            _ check: (DecodeError) -> Bool) {
        let clock = ContinuousClock()
        var caught: DecodeError?
        let elapsed = clock.measure {
            do throws(DecodeError) { _ = try ImageDecoder.decode(bytes, name: name, options: options) } catch { caught = error }
        }
        guard let caught else { Issue.record("\(name) decoded; an error was expected"); return }
        #expect(check(caught), "\(caught)")
        #expect(caught.name == name)
        #expect(!caught.description.contains("\n") && caught.description.hasPrefix(name))
        // Under a sanitizer (Scripts/check-sanitizers sets FETCH_GALLERY_SANITIZER) the codecs run
        // several times slower, so the wall-clock bound says nothing there; the error itself is checked.
        if !Sanitizer.active {
            #expect(elapsed < limit, "\(name) took \(elapsed)")
        }
    }

    @Test func header65500SquareIsTooLargeBeforeAllocation() throws {
        let bytes = try Self.patchedSOF(width: 65500, height: 65500)
        Self.expectError(bytes, name: "huge.jpg") {
            if case .tooLarge(_, 65500, 65500, _) = $0 { true } else { false }
        }
        // With the pixel guard lifted, the decoded-bytes guard still refuses before allocating.
        Self.expectError(bytes, name: "huge.jpg", options: DecodeOptions(maxPixels: .max)) {
            if case .tooLarge(_, 65500, 65500, _) = $0 { true } else { false }
        }
    }

    /// Over libjpeg's own 65500 limit: refused even with our guards off.
    @Test func headerOverLibjpegLimitIsTooLarge() throws {
        let bytes = try Self.patchedSOF(width: 65535, height: 100)
        Self.expectError(bytes, name: "wide.jpg", options: DecodeOptions(maxPixels: .max, maxDecodedBytes: .max)) {
            if case .tooLarge(_, 65535, 100, _) = $0 { true } else { false }
        }
    }

    @Test(arguments: ["png-suite/basn2c08.png", "jpeg-made/jpg-size-33x33.jpg"])
    func maxPixelsOption(file: String) throws {
        let bytes = try Corpus.bytes(file)
        Self.expectError(bytes, name: file, options: DecodeOptions(maxPixels: 1000)) {
            if case .tooLarge = $0 { true } else { false }
        }
        #expect(throws: DecodeError.self) { try ImageDecoder.probe(bytes, name: file, options: DecodeOptions(maxPixels: 1000)) }
        _ = try ImageDecoder.decode(bytes, name: file, options: DecodeOptions(maxPixels: 1089))
    }

    @Test func maxDecodedBytesOption() throws {
        let bytes = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        Self.expectError(bytes, name: "testorig.jpg", options: DecodeOptions(maxDecodedBytes: 1000)) {
            if case .tooLarge = $0 { true } else { false }
        }
        // At 1/8 (29x19x3 = 1653 bytes) the same budget of 2000 bytes suffices.
        let small = try ImageDecoder.decode(bytes, name: "testorig.jpg",
                                            options: DecodeOptions(target: .longestEdge(20), maxDecodedBytes: 2000))
        #expect(small.bitmap.byteCount == 29 * 19 * 3)
    }

    /// testorig-progressive.jpg has 10 scans; both the normal and the DC-only path stop at the limit.
    @Test(arguments: [DecodeTarget.fullSize, .longestEdge(8)])
    func maxScansOption(target: DecodeTarget) throws {
        let bytes = try Corpus.bytes("derived/testorig-progressive.jpg")
        Self.expectError(bytes, name: "p.jpg", options: DecodeOptions(target: target, maxScans: 3)) {
            if case .tooLarge(_, _, _, let limit) = $0 { limit.contains("scans") } else { false }
        }
        _ = try ImageDecoder.decode(bytes, name: "p.jpg", options: DecodeOptions(target: target, maxScans: 10))
    }

    /// A 3600x2400 progressive file needs ~26 MB of coefficient buffers inside libjpeg.
    @Test func maxCodecMemoryCapsLibjpeg() throws {
        let bytes = try DecodingFixtures.largePhoto(progressive: true)
        Self.expectError(bytes, name: "big.jpg", options: DecodeOptions(maxCodecMemory: 4 << 20)) {
            if case .tooLarge = $0 { true } else { false }
        }
        _ = try ImageDecoder.decode(bytes, name: "big.jpg", options: DecodeOptions(target: .longestEdge(300)))
    }

    @Test func photoCutInHalfIsTruncated() throws {
        let whole = try Corpus.bytes("exif-orientation/Landscape_1.jpg")
        let half = Array(whole.prefix(whole.count / 2))
        Self.expectError(half, name: "half.jpg") { $0 == .truncated(name: "half.jpg") }
        Self.expectError(half, name: "half.jpg", options: DecodeOptions(target: .longestEdge(200))) {
            $0 == .truncated(name: "half.jpg")
        }
        let tolerated = try ImageDecoder.decode(half, name: "half.jpg", options: DecodeOptions(allowTruncated: true))
        #expect(tolerated.bitmap.width == 1800 && tolerated.bitmap.height == 1200)
    }

    @Test func progressiveCutInHalfIsTruncated() throws {
        let whole = try DecodingFixtures.progressiveLandscape()
        Self.expectError(Array(whole.prefix(whole.count / 2)), name: "half-progressive.jpg") {
            $0 == .truncated(name: "half-progressive.jpg")
        }
    }

    @Test func pngCutShortIsTruncated() throws {
        let whole = try Corpus.bytes("png-image-rs/ztxt_example.png")
        Self.expectError(Array(whole.prefix(whole.count * 2 / 3)), name: "cut.png") { $0 == .truncated(name: "cut.png") }
    }

    @Test func htmlAndEmptyAreNotImages() {
        let html = Array("<!DOCTYPE html><html><body>404 Not Found</body></html>".utf8)
        Self.expectError(html, name: "photo.jpg") { $0 == .notAnImage(name: "photo.jpg") }
        Self.expectError([], name: "empty.jpg") { $0 == .notAnImage(name: "empty.jpg") }
        Self.expectError([0xFF, 0xD8], name: "two-bytes.jpg") { $0 == .notAnImage(name: "two-bytes.jpg") }
    }

    @Test func otherFormatsAreRecognisedButUnsupported() {
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8] + [UInt8](repeating: 0, count: 20)
        #expect(ImageFormat.sniff(tiff) == .tiff)
        Self.expectError(tiff, name: "a.tif") { if case .unsupported(_, let reason) = $0 { reason.contains("TIFF") } else { false } }
        let bmp = Array("BM".utf8) + [UInt8](repeating: 0, count: 40)
        Self.expectError(bmp, name: "a.bmp") { if case .unsupported = $0 { true } else { false } }
    }

    /// GIF and WebP signatures lead to their decoders: junk after a signature is a decode error of
    /// that format, not "unsupported".
    @Test func gifAndWebPSignaturesAreDecoded() {
        let gif = Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20)
        #expect(ImageFormat.sniff(gif) == .gif)
        Self.expectError(gif, name: "a.gif") {
            switch $0 { case .corrupt, .truncated: true; default: false }
        }
        let webp = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        #expect(ImageFormat.sniff(webp) == .webp)
        Self.expectError(webp, name: "a.webp") {
            switch $0 { case .corrupt, .truncated: true; default: false }
        }
    }

    @Test(arguments: ["libjpeg-turbo/monkey12.jpg", "jpeg-edge/jpeg_lossless_sel1.jpg"])
    func twelveBitAndLosslessAreUnsupported(file: String) throws {
        Self.expectError(try Corpus.bytes(file), name: file) { if case .unsupported = $0 { true } else { false } }
    }

    @Test(arguments: ["png-image-rs/x_issue230.0.png", "png-image-rs/x_issue230.1.png", "png-image-rs/x_issue214.png",
                      "jpeg-corrupt/max_size.jpg"])
    func absurdHeadersFailFast(file: String) throws {
        Self.expectError(try Corpus.bytes(file), name: file, options: DecodeOptions(maxPixels: .max),
                         within: .milliseconds(200)) { _ in true }
    }

    @Test func missingFileIsIOError() {
        #expect(throws: DecodeError.io(name: "/nonexistent/x.jpg", reason: "No such file or directory")) {
            try ImageDecoder.decode(fileAt: "/nonexistent/x.jpg")
        }
    }
}
