import GallerySync
import Testing
@testable import GalleryKit
@testable import PhotoGallery

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
        // 6 bytes a hash a table, 4 for piece 0's positions, the bucket starts, 2 bytes of padding.
        #expect(index.byteCount == hashes.count * 28 + 4 * 65_537 * 4 + 2)
    }

    @Test("many equal hashes are each reported once, with their distance")
    func equalHashes() {
        var random = SplitMix64(seed: 99)
        let base = random.next()
        // 300 copies of one hash, 200 of a hash 3 bits away, 500 unrelated hashes.
        let hashes = [UInt64](repeating: base, count: 300) + [UInt64](repeating: base ^ 0b1011 << 20, count: 200)
            + (0..<500).map { _ in random.next() }
        let index = NearHashIndex(hashes)
        var found: [Int: Int] = [:], repeated = 0
        index.forEach(within: 3, of: base) { position, distance in
            if found.updateValue(distance, forKey: position) != nil { repeated += 1 }
        }
        #expect(repeated == 0)
        #expect(Set(found.keys) == Set(0..<500))
        #expect(found.filter { $0.key < 300 }.allSatisfy { $0.value == 0 })
        #expect(found.filter { $0.key >= 300 }.allSatisfy { $0.value == 3 })
    }

    @Test("the pieces searched cover every distance: d = 4r + a searches a + 1 pieces at r, the rest at r - 1")
    func pieceRadii() {
        #expect(HashPieces.radii(10) == [2, 2, 2, 1])
        #expect(HashPieces.radii(8) == [2, 1, 1, 1])
        #expect(HashPieces.radii(3) == [0, 0, 0, 0])
        #expect(HashPieces.radii(0) == [0, -1, -1, -1])
        for piece in 0..<4 {
            let hash: UInt64 = 0x0123_4567_89AB_CDEF
            #expect(HashPieces.hash(HashPieces.key(hash, piece), piece) == hash)
            #expect(UInt16(HashPieces.key(hash, piece) >> 48) == HashPieces.value(hash, piece))
        }
    }

    @Test func sixteenBitValuesWithinARadius() {
        var values: [UInt16] = []
        NearHashIndex.forEachValue(near: 0b1010, radius: 2) { values.append($0) }
        #expect(values.count == 1 + 16 + 120 && Set(values).count == values.count)
        #expect(values.allSatisfy { ($0 ^ 0b1010).nonzeroBitCount <= 2 })
    }
}
