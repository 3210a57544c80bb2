import CCodecs
import Dispatch
import Foundation
@testable import GalleryImaging
import GallerySync
import GalleryTestSupport
import Testing

/// The whole-stream path's buffers come from one budget for the whole process (png_internal.h): a
/// decode whose buffer would not fit beside the others' waits for them. Decodes on many threads at
/// once give the pixels one decode alone gives, through the whole stream, and every byte taken is given
/// back, also by a decode whose inflate fails after taking it (then read, and rejected, by libpng).
@Suite("Decoding: PNG whole-stream memory budget")
struct DecodingPNGBudgetTests {
    static func decode(_ png: [UInt8], _ name: String) -> Result<(image: DecodedImage, wholeStream: Bool), DecodeError> {
        png.withUnsafeBytes { raw in
            Result { () throws(DecodeError) in
                try PNGDecoder.decode(raw, name: name, options: DecodeOptions(target: .longestEdge(256)),
                                      inflation: .wholeStreamWhenItFits)
            }
        }
    }

    /// Other suites decode PNGs in this process at the same time: the budget is back to zero once
    /// they are done too (a leak never gets there).
    static func budgetReturnsToZero() async -> Bool {
        for _ in 0..<300 {
            if fg_png_whole_budget_held() == 0 { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    static func photoPNG() throws -> [UInt8] {
        try ImageEncoder.encodePNG(try ImageDecoder.decode(fileAt: Corpus.path("exif-orientation/Landscape_1.jpg")).bitmap)
    }

    @Test func parallelDecodesGiveTheSamePixelsAndTheBudgetBack() async throws {
        let png = try Self.photoPNG()
        let alone = try Self.decode(png, "alone.png").get()
        #expect(alone.wholeStream)
        let outcomes = Locked([Int: (Bitmap, Bool)]())
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            if case .success(let (image, whole)) = Self.decode(png, "parallel-\(i).png") {
                outcomes.withLock { $0[i] = (image.bitmap, whole) }
            }
        }
        let results = outcomes.withLock { $0 }
        #expect(results.count == 8)
        for (i, (bitmap, whole)) in results {
            #expect(whole, "decode \(i) did not take the whole-stream path")
            #expect(bitmap == alone.image.bitmap, "decode \(i) differs from the decode alone")
        }
        #expect(await Self.budgetReturnsToZero(), "\(fg_png_whole_budget_held()) bytes still held")
    }

    /// The image data cut to half its length (one IDAT, its CRC made right again): the whole stream takes
    /// its bytes, fails to inflate and declines; libpng's rows then report the error.
    @Test func aFailedInflateGivesItsBytesBack() async throws {
        let png = try Self.photoPNG()
        let idats = PNGChunks.chunks(png).filter { $0.type == "IDAT" }
        let (first, last) = (try #require(idats.first), try #require(idats.last))
        let data = idats.flatMap { png[($0.offset + 8)..<$0.dataEnd] }
        let broken = Array(png[0..<first.offset]) + PNGChunks.chunk("IDAT", Array(data[0..<(data.count / 2)]))
            + Array(png[last.end...])
        for i in 0..<4 {
            if case .success = Self.decode(broken, "cut-\(i).png") { Issue.record("a cut PNG decoded") }
        }
        #expect(await Self.budgetReturnsToZero(), "\(fg_png_whole_budget_held()) bytes still held")
    }
}
