import Foundation
import GalleryImaging
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// The pHash a dataset run takes (``DatasetImageProcessor`` with `perceptualHash`) on the repository's real
/// photographs and copies of them, which sets `--phash-distance`'s default; and the placeholder table's counts
/// and memory bound.
@Suite struct DatasetVerifyTests {
    static let demo = Corpus.root + "/../../Sources/GalleryDemo/Resources/demo-photos"

    /// Every photograph the repository carries: the demo set, the corpus's camera photos and test images.
    static func photos() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: demo).filter { $0.hasSuffix(".jpg") }.sorted()
        return names.map { demo + "/" + $0 } + ["libjpeg-turbo/testorig.jpg", "exif-orientation/Landscape_1.jpg", "exif-orientation/Portrait_1.jpg",
                                               "libjpeg-turbo/vgl_5674_0098.png", "libjpeg-turbo/monkey16.png"].map { Corpus.root + "/" + $0 }
    }

    /// The pHash of `bytes` as a 512-px keep_ratio run takes it.
    static func phash(_ bytes: [UInt8], skipReencode: Bool = false) throws -> PerceptualHash {
        var options = DatasetImageOptions()
        options.imageSize = 512
        options.resizeMode = .keepRatio
        options.skipReencode = skipReencode
        let output = try DatasetImageProcessor(options: options).process(bytes.withUnsafeBytes { $0 }, copying: bytes, perceptualHash: true).get()
        return try #require(output.phash)
    }

    /// Copies of one photo: JPEG at quality 30, 50, 75, 90; resized to a half, a quarter, a tenth (JPEG 80);
    /// WebP 60; PNG of the half size.
    static func copies(_ bytes: [UInt8]) throws -> [(String, [UInt8])] {
        let bitmap = try ImageDecoder.decode(bytes, name: "photo").bitmap
        func scaled(_ f: Double) -> Bitmap {
            Resampler(filter: .area).scale(bitmap, width: max(8, Int(Double(bitmap.width) * f)), height: max(8, Int(Double(bitmap.height) * f)))
        }
        var list: [(String, [UInt8])] = []
        for q in [30, 50, 75, 90] { list.append(("jpeg q\(q)", try ImageEncoder.encodeJPEG(bitmap, quality: q))) }
        for f in [0.5, 0.25, 0.1] { list.append(("resized \(f)", try ImageEncoder.encodeJPEG(scaled(f), quality: 80))) }
        list.append(("webp q60", try ImageEncoder.encodeWebP(bitmap, quality: 60)))
        list.append(("png 0.5", try ImageEncoder.encodePNG(scaled(0.5))))
        return list
    }

    @Test func copiesStayWithinTheDefaultDistanceAndOtherPhotosFarBeyond() throws {
        let paths = try Self.photos()
        #expect(paths.count >= 16)
        var hashes: [PerceptualHash] = []
        var same: [(Int, String)] = []
        for path in paths {
            let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
            let original = try Self.phash(bytes)
            hashes.append(original)
            for (kind, copy) in try Self.copies(bytes) { same.append((original.distance(to: try Self.phash(copy)), kind)) }
            // Kept as downloaded (--skip-reencode, no resize): the hash from the reduced decode.
            #expect(original.distance(to: try Self.phash(bytes, skipReencode: true)) <= 2)
        }
        var different: [Int] = []
        for i in hashes.indices { for j in hashes.indices where j > i { different.append(hashes[i].distance(to: hashes[j])) } }
        let worstCopy = same.max { $0.0 < $1.0 }!
        print("pHash distance, \(paths.count) photos: \(same.count) copies max \(worstCopy.0) (\(worstCopy.1)), "
              + "histogram \(Dictionary(grouping: same.map(\.0), by: { $0 }).mapValues(\.count).sorted { $0.key < $1.key }); "
              + "\(different.count) pairs of different photos min \(different.min()!), median \(different.sorted()[different.count / 2])")
        #expect(worstCopy.0 <= DatasetVerification.defaultPHashDistance)
        #expect(different.min()! > DatasetVerification.defaultPHashDistance + 5)
    }

    /// Prints the CPU time of the pHash of one photo as a 512-px keep_ratio run decodes it (the thread's CPU
    /// clock, so other tests running beside it do not count); checks only that it was taken.
    @Test func theCostOfThePHash() throws {
        let bytes = [UInt8](try #require(FileManager.default.contents(atPath: Self.demo + "/evening-boats.jpg")))
        var options = DecodeOptions()
        options.target = .covering(width: 512, height: 512)
        let bitmap = try ImageDecoder.decode(bytes, name: "photo", options: options).bitmap
        func cpu() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        let rounds = 200
        var bits: UInt64 = 0
        let start = cpu()
        for _ in 0..<rounds { bits ^= PerceptualHash(of: bitmap).bits }
        let ms = (cpu() - start) / Double(rounds) * 1000
        print("pHash of a \(bitmap.width)x\(bitmap.height) bitmap: \(String(format: "%.3f", ms)) ms CPU")
        #expect(ms > 0 && bits == 0)
    }

    @Test func placeholdersNeedManyURLsOfOneHost() {
        var policy = PlaceholderPolicy()
        policy.urls = 4
        let detector = PlaceholderDetector(policy: policy)
        let digest = String(repeating: "ab", count: 32)
        // The same URL again and again, and the same content on many hosts: never a placeholder.
        for _ in 0..<20 { #expect(detector.observe(url: "http://a.example/photo.jpg", digest: digest) == .clear) }
        for h in 0..<20 { #expect(detector.observe(url: "http://h\(h).example/photo.jpg", digest: digest) == .clear) }
        // Different URLs of one host: suspect from the second, a placeholder from the fourth on.
        let verdicts = (0..<6).map { detector.observe(url: "http://dead.example/p/\($0).jpg", digest: digest) }
        #expect(verdicts == [.clear, .suspect, .suspect, .placeholder, .placeholder, .placeholder])
        #expect(detector.isPlaceholder(url: "http://dead.example/p/0.jpg", digest: digest))
        #expect(!detector.isPlaceholder(url: "http://a.example/p/0.jpg", digest: digest))
        #expect(!detector.isPlaceholder(url: "https://dead.example/p/0.jpg", digest: digest))
    }

    /// A shard holds at most its limit of suspect rows: past it the oldest comes back to be written.
    @Test func heldRowsAreBounded() {
        let held = HeldRows()
        let rows = (0..<3).map { ReadyRow(row: DatasetRow(index: $0, values: []), key: "k\($0)", outcome: RowOutcome(status: .success)) }
        #expect(held.hold(rows[0], limit: 2) == nil && held.hold(rows[1], limit: 2) == nil)
        #expect(held.hold(rows[2], limit: 2)?.key == "k0")
        #expect(held.drain().map(\.key) == ["k1", "k2"] && held.drain().isEmpty)
        #expect(HeldRows().hold(rows[0], limit: 0)?.key == "k0")
    }

    @Test func theTableStaysWithinItsBound() {
        let policy = PlaceholderPolicy()
        let detector = PlaceholderDetector(policy: policy)
        let flagged = String(repeating: "0f", count: 32)
        for u in 0..<policy.urls { _ = detector.observe(url: "http://dead.example/\(u).jpg", digest: flagged) }
        // Many contents on the flagged host, many more hosts than the table keeps, each with many contents and URLs.
        for c in 0..<100 { _ = detector.observe(url: "http://dead.example/other/\(c).jpg", digest: String(format: "%016x", c + 1)) }
        #expect(detector.isPlaceholder(url: "http://dead.example/x.jpg", digest: flagged))
        for h in 0..<(3 * policy.hosts) {
            for c in 0..<(2 * policy.digestsPerHost) {
                for u in 0..<3 { _ = detector.observe(url: "http://h\(h).example/\(c)/\(u).jpg", digest: String(format: "%016x", c * 7919 + 3)) }
            }
        }
        let counts = detector.counts
        #expect(counts.hosts <= policy.hosts && counts.contents <= policy.hosts * policy.digestsPerHost
                && counts.urls <= counts.contents * policy.urls, "\(counts)")
        print("placeholder table: \(counts.hosts) hosts, \(counts.contents) contents, \(counts.urls) URL hashes; bound \(policy.memoryBound) bytes")
        #expect(policy.memoryBound < 8 << 20)
    }
}
