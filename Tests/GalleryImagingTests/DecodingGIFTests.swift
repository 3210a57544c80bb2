import GalleryImaging
import GalleryTestSupport
import Testing

/// GIF through giflib, on the corpus' gif/ files, drawn byte by byte by Tests/Corpus/gif/make.py so
/// every pixel is known: index (x / 3 + y / 2) % 4 of the table in use.
@Suite("Decoding: GIF")
struct DecodingGIFTests {
    static let global: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]]
    static let local: [[UInt8]] = [[255, 255, 0], [0, 255, 255], [255, 0, 255], [0, 0, 0]]

    static func decode(_ file: String, _ options: DecodeOptions = DecodeOptions()) throws -> Bitmap {
        let image = try ImageDecoder.decode(fileAt: Corpus.path(file), options: options)
        #expect(image.format == .gif && image.scaleDenominator == 1)
        return image.bitmap
    }

    static func pixel(_ b: Bitmap, _ x: Int, _ y: Int) -> [UInt8] { (0..<3).map { b[x, y, $0] } }

    static func expectPattern(_ b: Bitmap, palette: [[UInt8]], width: Int, height: Int, at origin: (Int, Int) = (0, 0),
                              transparentIndex: Int? = nil) {
        for y in 0..<height {
            for x in 0..<width {
                let index = (x / 3 + y / 2) % 4
                let (cx, cy) = (origin.0 + x, origin.1 + y)
                if index == transparentIndex {
                    #expect(b[cx, cy, 3] == 0, "(\(cx), \(cy)) should be transparent")
                    continue
                }
                #expect(pixel(b, cx, cy) == palette[index], "(\(cx), \(cy))")
                if b.format == .rgba8 { #expect(b[cx, cy, 3] == 255) }
            }
        }
    }

    @Test func globalAndLocalTables() throws {
        let global = try Self.decode("gif/global-palette.gif")
        #expect(global.width == 24 && global.height == 16 && global.format == .rgb8)
        Self.expectPattern(global, palette: Self.global, width: 24, height: 16)
        Self.expectPattern(try Self.decode("gif/local-palette.gif"), palette: Self.local, width: 24, height: 16)
    }

    @Test func transparentIndexIsTransparent() throws {
        let b = try Self.decode("gif/transparent-index.gif")
        #expect(b.format == .rgba8)
        Self.expectPattern(b, palette: Self.global, width: 24, height: 16, transparentIndex: 3)
    }

    @Test func interlacedRowsAreReordered() throws {
        let interlaced = try Self.decode("gif/interlaced.gif")
        #expect(DecodingFixtures.differingBytes(interlaced, try Self.decode("gif/global-palette.gif")) == 0)
        let tall = try Self.decode("gif/interlaced-tall.gif")
        #expect(tall.width == 5 && tall.height == 37)
        Self.expectPattern(tall, palette: Self.global, width: 5, height: 37)
        #expect(try ImageDecoder.probe(fileAt: Corpus.path("gif/interlaced.gif")).isProgressive)
    }

    @Test func aFrameSmallerThanTheScreenSitsAtItsOffsetOnATransparentCanvas() throws {
        let b = try Self.decode("gif/offset-frame.gif")
        #expect(b.width == 30 && b.height == 20 && b.format == .rgba8)
        Self.expectPattern(b, palette: Self.global, width: 10, height: 6, at: (7, 5))
        for y in 0..<20 {
            for x in 0..<30 where !(7..<17).contains(x) || !(5..<11).contains(y) {
                #expect(b[x, y, 3] == 0, "(\(x), \(y)) is outside the frame")
            }
        }
    }

    @Test func animationGivesItsFirstFrame() throws {
        let first = try Self.decode("gif/animated.gif")
        #expect(DecodingFixtures.differingBytes(first, try Self.decode("gif/global-palette.gif")) == 0)
    }

    @Test func aRealPhotoIn256ColoursLooksLikeTheSource() throws {
        let gif = try Self.decode("gif/photo.gif")
        let jpeg = try ImageDecoder.decode(fileAt: Corpus.path("libjpeg-turbo/testorig.jpg")).bitmap
        #expect(DecodingFixtures.psnr(gif, jpeg) > 25)
        let thumbnail = try Thumbnailer(longestEdge: 100).render(ImageDecoder.decode(fileAt: Corpus.path("gif/photo.gif")))
        #expect(thumbnail.width == 100 && thumbnail.height == 66)
    }

    @Test func hugeScreensAndFramesAreRefusedBeforeDecoding() throws {
        let clock = ContinuousClock()
        for (file, size) in [("gif/x-huge-screen.gif", (65535, 65535)), ("gif/x-huge-frame.gif", (4, 4))] {
            let path = try Corpus.path(file)
            let elapsed = clock.measure {
                do throws(DecodeError) {
                    _ = try ImageDecoder.decode(fileAt: path)
                    Issue.record("\(file) decoded")
                } catch {
                    guard case .tooLarge(let name, let w, let h, let limit) = error else { Issue.record("\(error)"); return }
                    #expect(name == path && w == size.0 && h == size.1 && limit.contains("limit"), "\(error)")
                }
            }
            #expect(elapsed < .seconds(1))  // a decode of 65535 x 65535 would take far longer, and gigabytes
        }
    }

    @Test func damagedFilesGiveTypedErrors() throws {
        let truncated = try Corpus.path("gif/x-truncated.gif")
        #expect(throws: DecodeError.truncated(name: truncated)) { try ImageDecoder.decode(fileAt: truncated) }
        // Allowed, a cut GIF shows the rows it has, the rest transparent-black.
        let partial = try Self.decode("gif/x-truncated.gif", DecodeOptions(allowTruncated: true))
        Self.expectPattern(partial, palette: Self.global, width: 24, height: 2)
        for (file, words) in [("gif/x-no-colour-table.gif", "colour table"), ("gif/x-no-image.gif", "no image")] {
            let path = try Corpus.path(file)
            do throws(DecodeError) {
                _ = try ImageDecoder.decode(fileAt: path)
                Issue.record("\(file) decoded")
            } catch {
                guard case .corrupt(path, let reason) = error, reason.contains(words) else { Issue.record("\(error)"); continue }
            }
        }
    }
}
