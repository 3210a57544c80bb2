import GalleryImaging
import GalleryTestSupport
import Testing

/// The decoder keeps no shared state (one libjpeg/libpng context per call), so the pipeline may
/// decode on many tasks at once; results must equal serial decodes.
@Suite("Decoding: concurrent decodes")
struct DecodingConcurrencyTests {
    static let files = ["exif-orientation/Landscape_1.jpg", "exif-orientation/Portrait_6.jpg",
                        "derived/testorig-progressive.jpg", "jpeg-made/jpg-cmyk-2.jpg",
                        "png-suite/basi6a16.png", "png-image-rs/issue430.png", "libjpeg-turbo/monkey16.png",
                        "jpeg-edge/progressive3.jpg"]

    @Test func parallelEqualsSerial() async throws {
        let inputs = try Self.files.map { try Corpus.bytes($0) }
        let options = DecodeOptions(target: .longestEdge(100))
        let serial = try inputs.enumerated().map { try ImageDecoder.decode($1, name: Self.files[$0], options: options).bitmap }
        let parallel = try await withThrowingTaskGroup(of: (Int, Bitmap).self) { group in
            for round in 0..<4 {
                for (i, bytes) in inputs.enumerated() {
                    group.addTask { (i, try ImageDecoder.decode(bytes, name: "\(round)-\(i)", options: options).bitmap) }
                }
            }
            var results: [(Int, Bitmap)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(parallel.count == inputs.count * 4)
        for (i, bitmap) in parallel {
            #expect(DecodingFixtures.differingBytes(bitmap, serial[i]) == 0, "\(Self.files[i])")
        }
    }

    @Test func parallelErrorsStayTyped() async {
        let bad: [[UInt8]] = [Array("<html>".utf8), [0xFF, 0xD8, 0xFF, 0xC0, 0, 0], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]]
        await withTaskGroup(of: Bool.self) { group in
            for round in 0..<8 {
                for bytes in bad {
                    group.addTask {
                        do throws(DecodeError) {
                            _ = try ImageDecoder.decode(bytes, name: "bad-\(round)")
                            return false
                        } catch {
                            return error.name == "bad-\(round)"
                        }
                    }
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
