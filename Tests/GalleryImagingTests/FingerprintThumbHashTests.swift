import Foundation
@testable import GalleryImaging
import GalleryTestSupport
import Testing

@Suite struct FingerprintThumbHashTests {
    /// For each `PATH W H OURS_HEX`: PyPI `thumbhash-python`'s hash of the same RGBA pixels (read from
    /// PATH), and its decoder's image of our hash (width, height, RGBA hex). Not PyPI `thumbhash` 0.1.2:
    /// its decoder keeps the first pixel's cosines for every pixel (a flat image) and its encoder fails
    /// on images with alpha.
    static let reference = """
        import sys
        from thumbhash.encode import rgba_to_thumbhash
        from thumbhash.decode import thumbhash_to_rgba
        args = sys.argv[1:]
        for i in range(0, len(args), 4):
            path, w, h, ours = args[i], int(args[i + 1]), int(args[i + 2]), bytes.fromhex(args[i + 3])
            theirs = rgba_to_thumbhash(w, h, list(open(path, "rb").read()))
            dw, dh, image = thumbhash_to_rgba(ours)
            print(theirs.hex(), dw, dh, bytes(image).hex())
        """

    static let photos = ["colorful-cups.jpg", "ladybird.jpg", "evening-boats.jpg", "forest-path-portrait.jpg",
                         "cold-pier-gray.jpg", "yellow-flower-portrait.jpg"]

    /// Mean absolute difference per channel (RGB; alpha too when both have it) of two RGBA bitmaps.
    static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.format == .rgba8 && b.format == .rgba8)
        var total = 0
        for i in 0..<a.width * a.height * 4 { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(total) / Double(a.width * a.height * 4)
    }

    static func rgba8(_ bitmap: Bitmap) -> Bitmap {
        let values = ThumbHash.rgba(bitmap)
        return Bitmap(width: bitmap.width, height: bitmap.height, format: .rgba8, pixels: values.map { UInt8($0 * 255 + 0.5) })
    }

    @Test("the encoder agrees with the thumbhash package; its reference decoder and ours draw the thumbnail's colours")
    func matchesReference() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fg-thumbhash-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var arguments: [String] = [], cases: [(name: String, thumb: Bitmap, hash: ThumbHash)] = []
        let paths = Self.photos.map { FingerprintFixtures.demoFolder + "/" + $0 } + [try Corpus.path("png-suite/basn6a08.png")]
        for (index, path) in paths.enumerated() {
            let thumb = try FingerprintFixtures.thumbnail(path)
            let small = Self.rgba8(ThumbHash.working(thumb))
            let hash = ThumbHash(encoding: small)
            try Data(small.pixels).write(to: URL(fileURLWithPath: folder + "/\(index).rgba"))
            arguments += [folder + "/\(index).rgba", String(small.width), String(small.height),
                          hash.bytes.map { String(format: "%02x", $0) }.joined()]
            cases.append(((path as NSString).lastPathComponent, thumb, hash))
        }
        let lines = try FingerprintFixtures.python(Self.reference, arguments).split(separator: "\n").filter { $0.split(separator: " ").count == 4 }
        try #require(lines.count == cases.count)
        for (line, item) in zip(lines, cases) {
            let fields = line.split(separator: " ").map(String.init)
            let theirs = Self.bytes(hex: fields[0])
            // The same pixels give the same bytes; a term exactly between two steps may round either way.
            #expect(theirs.count == item.hash.bytes.count && item.hash.bytes.count <= 25, "\(item.name)")
            var nibbleSteps = 0
            for (a, b) in zip(theirs, item.hash.bytes) {
                let low = abs(Int(a & 15) - Int(b & 15))
                let high = abs(Int(a >> 4) - Int(b >> 4))
                nibbleSteps += low + high
            }
            #expect(nibbleSteps <= 4, "\(item.name): ours \(item.hash.bytes) theirs \(theirs)")
            // The reference decoder's image of our hash, against our decoder's and against the thumbnail.
            let (w, h) = (Int(fields[1])!, Int(fields[2])!)
            let reference = Bitmap(width: w, height: h, format: .rgba8, pixels: Self.bytes(hex: fields[3]))
            let ours = try item.hash.decoded(longestEdge: 32)
            try #require((ours.width, ours.height) == (w, h), "\(item.name): ours \(ours.width)x\(ours.height), theirs \(w)x\(h)")
            let decoderGap = Self.meanDifference(ours, reference)
            #expect(decoderGap < 1, "\(item.name): our decoder differs from the reference by \(decoderGap)")
            // A placeholder is a blur: compared with the thumbnail as 4x4 blocks of mean colour (alpha
            // images are left out: their transparent pixels' colour means nothing).
            guard !item.thumb.format.hasAlpha else { continue }
            let shown = Self.blocks(item.thumb)
            let gap = Self.blockDifference(Self.blocks(reference), shown)
            print("thumbhash \(item.name): \(item.hash.bytes.count) bytes, mean colour difference \(gap) over 4x4 blocks")
            #expect(gap < 16, "\(item.name): the placeholder is \(gap) away from the thumbnail")
            // The gallery's hash, taken from the 32x32 grid the pHash is taken from, with the true shape.
            let gallery = ImageFingerprint(of: item.thumb).thumbhash
            let galleryImage = try gallery.decoded(longestEdge: 32)
            #expect((galleryImage.width, galleryImage.height) == (w, h), "\(item.name): the shape survives the square grid")
            let galleryGap = Self.blockDifference(Self.blocks(galleryImage), shown)
            #expect(galleryGap < gap + 2, "\(item.name): \(galleryGap) from the square grid, \(gap) from the true one")
            // Teeth: every other photo's placeholder is further away.
            for other in cases where other.name != item.name && !other.thumb.format.hasAlpha {
                let wrong = Self.blockDifference(Self.blocks(try other.hash.decoded()), shown)
                #expect(wrong > gap, "\(item.name) is closer to \(other.name)'s placeholder (\(wrong)) than its own")
            }
        }
    }

    /// Mean R, G, B of each of 4x4 blocks.
    static func blocks(_ bitmap: Bitmap) -> [Double] {
        var sums = [Double](repeating: 0, count: 48), counts = [Double](repeating: 0, count: 16)
        let channels = bitmap.format.channels
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let block = (y * 4 / bitmap.height) * 4 + x * 4 / bitmap.width
                let p = y * bitmap.bytesPerRow + x * channels
                for c in 0..<3 { sums[block * 3 + c] += Double(bitmap.pixels[p + (channels < 3 ? 0 : c)]) }
                counts[block] += 1
            }
        }
        return sums.indices.map { sums[$0] / max(1, counts[$0 / 3]) }
    }

    static func blockDifference(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).map { abs($0 - $1) }.reduce(0, +) / Double(a.count)
    }

    @Test("bad bytes give a clear error")
    func badBytes() throws {
        #expect(throws: ThumbHash.FormatError.self) { try ThumbHash(bytes: [1, 2, 3]).decoded() }
        let good = ThumbHash(of: try FingerprintFixtures.thumbnail(FingerprintFixtures.demoFolder + "/ladybird.jpg"))
        #expect(throws: ThumbHash.FormatError.self) { try ThumbHash(bytes: Array(good.bytes.prefix(8))).decoded() }
        #expect(throws: Never.self) { try good.decoded() }
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = [], digits = hex.utf8.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            out.append(UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)!)
        }
        return out
    }
}
