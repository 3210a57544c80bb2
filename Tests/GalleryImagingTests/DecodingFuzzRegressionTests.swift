import Foundation
import GalleryImaging
import Testing

/// Inputs kept from the `jpeg`, `png`, `webp`, `gif` and `heif` fuzz targets (Fuzz/jpeg.swift, ...): crashes and leaks
/// that were fixed, and the smallest corpus inputs that reach error paths. Each must end in a typed
/// DecodeError or a consistent bitmap, under the product's default guards and the fuzzer's low ones,
/// at every target the harness picks from, and scale to a thumbnail of the promised size.
@Suite("Decoding: fuzz regressions")
struct DecodingFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions")
    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { file in extensions.contains { file.hasSuffix($0) } }.sorted()
    }
    static let extensions = [".jpg", ".png", ".webp", ".gif", ".avif", ".heic"]
    static let targets: [DecodeTarget] = [.longestEdge(1), .longestEdge(16), .longestEdge(64), .longestEdge(256),
                                          .covering(width: 40, height: 30), .fullSize]

    @Test func regressionFilesExist() {
        #expect(Self.files.count >= 4)
        for ext in [".jpg", ".png", ".webp", ".gif", ".avif"] {
            #expect(Self.files.contains { $0.hasSuffix(ext) }, "no \(ext) regression input")
        }
    }

    @Test(arguments: files)
    func decodesOrFailsTyped(_ file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(file)))
        for target in Self.targets {
            for fuzzerGuards in [false, true] {
                for fast in [false, true] {
                    var options = fuzzerGuards
                        ? DecodeOptions(target: target, maxPixels: 1_500_000, maxScans: 200, maxDecodedBytes: 8 << 20,
                                        maxCodecMemory: 64 << 20)
                        : DecodeOptions(target: target)
                    options.useFastPaths = fast
                    for truncatedOK in [false, true] {
                        options.allowTruncated = truncatedOK
                        check(bytes, name: file, options: options)
                    }
                }
            }
        }
    }

    private func check(_ bytes: [UInt8], name: String, options: DecodeOptions) {
        let decoded: DecodedImage
        do throws(DecodeError) {
            decoded = try ImageDecoder.decode(bytes, name: name, options: options)
        } catch {
            #expect(error.name == name)
            return
        }
        let b = decoded.bitmap
        #expect(b.pixels.count == b.width * b.height * b.format.channels)
        #expect(b.width <= decoded.sourceWidth && b.height <= decoded.sourceHeight)
        let minimum = options.target.minimumSize(sourceWidth: decoded.sourceWidth, sourceHeight: decoded.sourceHeight)
        #expect(b.width >= minimum.width && b.height >= minimum.height)
        let thumb = Thumbnailer(longestEdge: 32).render(decoded)
        let size = targetSize(forSourceWidth: decoded.sourceWidth, height: decoded.sourceHeight, longestEdge: 32)
        let expected = decoded.orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
        #expect(thumb.width == expected.0 && thumb.height == expected.1)
    }
}
