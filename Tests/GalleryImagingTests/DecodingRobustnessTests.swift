import GalleryImaging
import GalleryTestSupport
import Testing

/// Damaged inputs must end in a decode or a DecodeError, never a crash, hang or runaway allocation:
/// every prefix of small files, and deterministic byte mutations of real ones, through the plain
/// and the fast paths.
@Suite("Decoding: damaged inputs never crash")
struct DecodingRobustnessTests {
    static let files = ["libjpeg-turbo/testorig.jpg", "derived/testorig-progressive.jpg",
                        "derived/testorig-progressive-arith.jpg", "jpeg-made/jpg-cmyk-1.jpg",
                        "png-suite/basi6a16.png", "png-suite/basn3p04.png", "png-image-rs/issue403.png",
                        "webp/lossy-alpha.webp", "webp/lossless.webp", "webp/animated.webp",
                        "gif/interlaced.gif", "gif/transparent-index.gif", "gif/animated.gif"]
    static let targets: [DecodeTarget] = [.fullSize, .longestEdge(8)]

    /// Decodes and accepts either outcome; returns whether it decoded.
    @discardableResult
    static func survive(_ bytes: [UInt8], name: String) -> Int {
        var decoded = 0
        for target in targets {
            do throws(DecodeError) {
                let image = try ImageDecoder.decode(bytes, name: name, options: DecodeOptions(target: target))
                #expect(image.bitmap.byteCount == image.bitmap.width * image.bitmap.height * image.bitmap.format.channels)
                decoded += 1
            } catch {
                #expect(error.name == name)
            }
        }
        return decoded
    }

    @Test(arguments: files)
    func everyPrefix(file: String) throws {
        let whole = try Corpus.bytes(file)
        let step = max(1, whole.count / 150)
        for n in stride(from: 0, to: whole.count, by: step) {
            Self.survive(Array(whole.prefix(n)), name: "\(file)[..<\(n)]")
        }
    }

    @Test(arguments: files)
    func mutatedBytes(file: String) throws {
        let whole = try Corpus.bytes(file)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 &* UInt64(whole.count)
        func next() -> Int {  // xorshift64: deterministic, so a failure reproduces
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        for round in 0..<150 {
            var bytes = whole
            for _ in 0..<(1 + round % 4) {
                // Keep the signature so the codec, not the sniffer, meets the damage.
                let at = 8 + next() % (bytes.count - 8)
                bytes[at] = UInt8(truncatingIfNeeded: next())
            }
            Self.survive(bytes, name: "\(file)#\(round)")
        }
    }
}
