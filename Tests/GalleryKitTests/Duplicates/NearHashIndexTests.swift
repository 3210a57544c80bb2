import GallerySync
import Testing
@testable import GalleryKit

/// The multi-index lookup against brute force.
@Suite struct NearHashIndexTests {

    @Test("finds exactly the hashes brute force finds, each once", arguments: [0, 3, 8, 10, 11, 15])
    func matchesBruteForce(radius: Int) {
        var random = SplitMix64(seed: UInt64(radius) + 1)
        var hashes = (0..<4_000).map { _ in random.next() }
        // Planted neighbours at every distance up to 16 bits, flips spread over all four pieces.
        for i in 0..<1_000 {
            var near = hashes[i]
            for _ in 0..<(i % 17) { near ^= 1 << (random.next() % 64) }
            hashes.append(near)
        }
        let index = NearHashIndex(hashes)
        for probe in stride(from: 0, to: hashes.count, by: 7) {
            var found: [Int: Int] = [:], repeated = false
            index.forEach(within: radius, of: hashes[probe]) { position, distance in
                if found.updateValue(distance, forKey: position) != nil { repeated = true }
            }
            var expected: [Int: Int] = [:]
            for (position, hash) in hashes.enumerated() where (hash ^ hashes[probe]).nonzeroBitCount <= radius {
                expected[position] = (hash ^ hashes[probe]).nonzeroBitCount
            }
            #expect(found == expected && !repeated, "probe \(probe) at radius \(radius)")
        }
        #expect(index.byteCount == hashes.count * 32 + 4 * 65_537 * 4)
    }

    @Test func sixteenBitValuesWithinARadius() {
        var values: [UInt16] = []
        NearHashIndex.forEachValue(near: 0b1010, radius: 2) { values.append($0) }
        #expect(values.count == 1 + 16 + 120 && Set(values).count == values.count)
        #expect(values.allSatisfy { ($0 ^ 0b1010).nonzeroBitCount <= 2 })
    }
}
