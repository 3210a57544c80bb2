import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing

@Suite struct FingerprintPerceptualHashTests {
    /// `imagehash.phash` of each file, made upright first (our hash is of the upright photo); "-" where
    /// Pillow cannot open the file.
    static let reference = """
        import sys
        from PIL import Image, ImageOps
        import imagehash
        for path in sys.argv[1:]:
            try:
                image = ImageOps.exif_transpose(Image.open(path))
                print(path + "\\t" + str(imagehash.phash(image)))
            except Exception as error:
                print(path + "\\t-")
        """

    /// The repository's photographs: at least 96 pixels a side, less two drawings. The corpus' smaller
    /// files are test patterns (PngSuite's 32x32 drawings, 1x1 to 64x16 JPEGs); a blank page and a
    /// smooth two-triangle gradient have no detail to hash: their DCT terms sit at the median, where any
    /// rounding flips bits (30 and 12 bits from imagehash's).
    static func photographs() throws -> [String] {
        try FingerprintFixtures.photos().filter { path in
            guard !path.hasSuffix("blank_800x280.jpg") && !path.hasSuffix("ztxt_example.png") else { return false }
            let info = try ImageDecoder.probe([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), name: path)
            return min(info.width, info.height) >= 96
        }
    }

    @Test("within Hamming distance 2 of imagehash.phash on at least 99% of the repository's photographs")
    func matchesImagehash() throws {
        let photos = try Self.photographs()
        let lines = try FingerprintFixtures.python(Self.reference, photos).split(separator: "\n")
        var reference: [String: PerceptualHash] = [:]
        for line in lines {
            let fields = line.split(separator: "\t").map(String.init)
            if fields.count == 2, let hash = PerceptualHash(hex: fields[1]) { reference[fields[0]] = hash }
        }
        var compared = 0, close = 0, far: [String] = []
        for path in photos {
            guard let expected = reference[path] else { continue }
            let ours = PerceptualHash(of: try FingerprintFixtures.thumbnail(path))
            compared += 1
            if ours.distance(to: expected) <= 2 { close += 1 } else {
                far.append("\((path as NSString).lastPathComponent) \(ours.distance(to: expected))")
            }
        }
        print("pHash vs imagehash: \(close)/\(compared) within distance 2; further: \(far)")
        #expect(compared >= 40, "Pillow opened only \(compared) of \(photos.count) photos")
        #expect(Double(close) >= 0.99 * Double(compared), "within 2: \(close)/\(compared); further: \(far)")
    }

    @Test("the bits are imagehash's: hex round trip, and a transposed image has the transposed bit matrix")
    func bitLayout() throws {
        let thumb = try FingerprintFixtures.thumbnail(FingerprintFixtures.demoFolder + "/colorful-cups.jpg")
        let hash = PerceptualHash(of: thumb)
        #expect(PerceptualHash(hex: hash.hex) == hash && hash.hex.count == 16)
        #expect(PerceptualHash(hex: "12345") == nil && PerceptualHash(hex: "zz00000000000000") == nil)
        // Transposing the image transposes the DCT: coefficient (u, v) becomes (v, u). The 32x32 grey
        // reduction of a transposed image is the transposed reduction (the scaler is separable).
        let transposed = PerceptualHash(of: thumb.oriented(.leftMirrored))
        var expected: UInt64 = 0
        for u in 0..<8 {
            for v in 0..<8 where hash.bits >> UInt64(63 - (8 * u + v)) & 1 == 1 { expected |= 1 << UInt64(63 - (8 * v + u)) }
        }
        // The reductions of an image and of its transpose round apart by a unit here and there: a term
        // at the median may flip.
        #expect(transposed.distance(to: PerceptualHash(bits: expected)) <= 2)
        #expect(transposed.distance(to: hash) > 8, "a transposed photo is another picture")
    }

    @Test("an EXIF-rotated copy hashes as the upright photo", arguments: ["Landscape", "Portrait"])
    func exifRotated(kind: String) throws {
        let upright = PerceptualHash(of: try FingerprintFixtures.thumbnail(Corpus.path("exif-orientation/\(kind)_1.jpg")))
        for value in 2...8 {
            let rotated = PerceptualHash(of: try FingerprintFixtures.thumbnail(Corpus.path("exif-orientation/\(kind)_\(value).jpg")))
            #expect(rotated.distance(to: upright) <= 4, "\(kind)_\(value): \(rotated.distance(to: upright))")
        }
    }

    @Test("unrelated photos are far apart")
    func unrelatedPhotosDiffer() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: FingerprintFixtures.demoFolder)
            .filter(FingerprintFixtures.isImage).sorted()
        let hashes = try names.map { PerceptualHash(of: try FingerprintFixtures.thumbnail(FingerprintFixtures.demoFolder + "/" + $0)) }
        for i in hashes.indices {
            for j in hashes.indices where j > i {
                #expect(hashes[i].distance(to: hashes[j]) > 12, "\(names[i]) and \(names[j])")
            }
        }
    }
}
