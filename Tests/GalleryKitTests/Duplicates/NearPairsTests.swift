import GallerySync
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The grouping's all-pairs search against brute force.
@Suite struct NearPairsTests {
    @Test("finds exactly the pairs brute force finds, each once, later photo first", arguments: [0, 3, 10, 13])
    func matchesBruteForce(radius: Int) {
        var random = SplitMix64(seed: UInt64(radius) + 11)
        var hashes = (0..<1_500).map { _ in random.next() }
        for i in 0..<600 {  // planted neighbours at 0-16 bits, and some equal hashes
            var near = hashes[i]
            for _ in 0..<(i % 17) { near ^= 1 << (random.next() % 64) }
            hashes.append(near)
        }
        var expected: [UInt64: UInt32] = [:]
        for a in hashes.indices {
            for b in 0..<a where (hashes[a] ^ hashes[b]).nonzeroBitCount <= radius {
                expected[UInt64(a) << 32 | UInt64(b)] = UInt32((hashes[a] ^ hashes[b]).nonzeroBitCount)
            }
        }
        var keys = hashes, ordinals = (0..<UInt32(hashes.count)).map { $0 }
        let pairs = NearPairs(&keys, &ordinals, radius: radius)
        #expect(pairs.pairs == pairs.pairs.sorted())
        let found = pairs.pairs.map { (($0 >> 34) << 32 | ($0 >> 4) & 0x3FFF_FFFF, UInt32($0 & 0xF)) }
        #expect(Set(found.map(\.0)).count == found.count)
        #expect(Dictionary(found, uniquingKeysWith: { first, _ in first }) == expected)
        #expect(expected.count > (radius == 0 ? 30 : 100))
    }
}
