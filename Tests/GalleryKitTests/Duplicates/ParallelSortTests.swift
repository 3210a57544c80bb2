import GallerySync
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The in-place sort of parallel key and value arrays against the standard library's sort.
@Suite struct ParallelSortTests {
    @Test("sorts by key, each value moving with its key", arguments: [0, 1, 31, 33, 1_000, 100_000])
    func sortsLikeTheStandardLibrary(count: Int) {
        var random = SplitMix64(seed: UInt64(count) + 7)
        // Random keys, a run of equal keys, and keys that share their top bytes (deep recursion).
        var keys = (0..<count).map { i -> UInt64 in
            switch i % 4 {
            case 0: return 42
            case 1: return 0xFFFF_FFFF_0000_0000 | (random.next() & 0xFF)
            default: return random.next()
            }
        }
        var values = (0..<UInt32(count)).map { $0 }
        let expected = zip(keys, values).sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        ParallelSort.sort(&keys, &values)
        #expect(keys == expected.map(\.0))
        // Values moved with their keys: the same (key, value) pairs, in key order.
        #expect(zip(keys, values).sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.1) == expected.map(\.1))
    }
}
