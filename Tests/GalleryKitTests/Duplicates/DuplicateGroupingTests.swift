import GallerySync
import Testing
@testable import GalleryKit

/// The streamed grouping against a direct one (every earlier photo compared), on synthetic photos,
/// and its memory.
@Suite struct DuplicateGroupingTests {
    typealias Photo = DuplicateGrouping.Photo

    /// `count` photos: random hashes and sizes, and among them copies of earlier photos (`copies` in 20):
    /// a third the same bytes, the others near pHashes (0-14 bits off, so some equal pHashes of
    /// different bytes, and chains of small steps as in a burst); and some originals not hashed.
    static func photos(_ count: Int, seed: UInt64, copies: UInt64 = 9) -> [Photo] {
        var random = SplitMix64(seed: seed)
        var photos: [Photo] = []
        func sha(_ value: UInt64) -> String {
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex + String(repeating: "ab", count: 24)
        }
        for i in 0..<count {
            let id = 1_000 + i * 3
            let pixels = Int(random.next() % 4) * 1_000  // ties
            let roll = random.next() % 20
            if i > 0, roll < copies / 3 {
                var copy = photos[Int(random.next() % UInt64(i))]
                (copy.id, copy.pixels) = (id, pixels)
                photos.append(copy)
            } else if i > 0, roll < copies {
                let of = photos[Int(random.next() % UInt64(i))]
                var hash = of.phash ?? random.next()
                for _ in 0..<Int(random.next() % (roll + 1 < copies ? 15 : 1)) { hash ^= 1 << (random.next() % 64) }
                photos.append(Photo(id: id, sha256: sha(random.next()), phash: hash, pixels: pixels))
            } else {
                photos.append(Photo(id: id, sha256: sha(random.next()), phash: roll == 19 ? nil : random.next(), pixels: pixels))
            }
        }
        return photos
    }

    /// The groups as defined: in listing order, a photo joins the group of the first photo with its
    /// bytes, else that of the nearest earlier photo that starts a group (ties to the earlier).
    static func direct(_ photos: [Photo], mode: DuplicateMode) -> [Int: DuplicateGrouping.Membership] {
        var group = [Int](repeating: -1, count: photos.count)
        var firstWithBytes: [String: Int] = [:]
        for i in photos.indices {
            if let j = firstWithBytes[photos[i].sha256] { group[i] = group[j]; continue }
            firstWithBytes[photos[i].sha256] = i
            group[i] = i
            guard mode == .near, let hash = photos[i].phash else { continue }
            var best: (distance: Int, position: Int)?
            for j in 0..<i where group[j] == j {
                guard let other = photos[j].phash else { continue }
                let distance = (other ^ hash).nonzeroBitCount
                if distance <= DuplicateMode.nearThreshold, best == nil || (distance, j) < (best!.distance, best!.position) {
                    best = (distance, j)
                }
            }
            if let best { group[i] = best.position }
        }
        var members: [Int: [Int]] = [:]
        for i in photos.indices { members[group[i], default: []].append(i) }
        var groups: [Int: DuplicateGrouping.Membership] = [:]
        for positions in members.values where positions.count > 1 {
            let shown = positions.max { (photos[$0].pixels, -$0) < (photos[$1].pixels, -$1) }!
            for position in positions {
                let sameBytes = photos[position].sha256 == photos[shown].sha256
                groups[photos[position].id] = DuplicateGrouping.Membership(
                    shown: photos[shown].id,
                    distance: sameBytes ? 0 : ((photos[position].phash ?? 0) ^ (photos[shown].phash ?? 0)).nonzeroBitCount,
                    hash: sameBytes ? "sha256" : "phash", members: position == shown ? positions.map { photos[$0].id } : [])
            }
        }
        return groups
    }

    @Test("the same groups as comparing every earlier photo", arguments: [DuplicateMode.exact, .near], [1, 2, 3])
    func sameAsDirect(mode: DuplicateMode, seed: UInt64) {
        let photos = Self.photos(3_000, seed: seed)
        var passes = 0
        let grouping = DuplicateGrouping(mode: mode) { visit in
            passes += 1
            photos.forEach(visit)
        }
        let expected = Self.direct(photos, mode: mode)
        #expect(expected.count > 300)
        #expect(grouping.groups.count == expected.count)
        for (id, membership) in expected where grouping[id] != membership {
            Issue.record("photo \(id): \(String(describing: grouping[id])), want \(membership)")
            break
        }
        #expect(passes == (mode == .near ? 3 : 2))
    }

    @Test("off reads nothing; no copies reads the photos once a pass and stops")
    func passes() {
        var passes = 0
        _ = DuplicateGrouping(mode: .off) { (_: (Photo) -> Void) in passes += 1 }
        #expect(passes == 0)
        let distinct = (0..<100).map { Photo(id: $0, sha256: String($0), phash: UInt64($0) &* 0x9E37_79B9_7F4A_7C15, pixels: 1) }
        let grouping = DuplicateGrouping(mode: .near) { visit in
            passes += 1
            distinct.forEach(visit)
        }
        #expect(grouping.groups.isEmpty && passes == 2)
    }

    @Test("the working structures hold at most 16 bytes a photo (three photos in twenty copies)")
    func bytesAPhoto() {
        let count = 100_000
        let photos = Self.photos(count, seed: 5, copies: 3)
        let grouping = DuplicateGrouping(mode: .near) { visit in photos.forEach(visit) }
        #expect(grouping.groups.count > count / 10)
        let perPhoto = Double(grouping.workingBytes) / Double(count)
        #expect(perPhoto >= 12 && perPhoto <= 16, "\(perPhoto) bytes a photo")
    }
}
