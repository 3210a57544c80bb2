import GallerySync
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The streamed grouping against a direct one (every earlier photo compared), on synthetic photos,
/// and its memory.
@Suite struct DuplicateGroupingTests {
    typealias Photo = DuplicateGrouping.Photo

    /// Noise reductions: two of them are never one picture, one with itself always is.
    static let reductions: [GreyReduction] = {
        var random = SplitMix64(seed: 99)
        return (0..<64).map { _ in GreyReduction(pixels: (0..<576).map { _ in UInt8(truncatingIfNeeded: random.next()) })! }
    }()

    /// `count` photos: random hashes and sizes, and among them copies of earlier photos (`copies` in 20):
    /// a third the same bytes, the others near pHashes (0-14 bits off, so some equal pHashes of
    /// different bytes, and chains of small steps as in a burst), half of those with the same grey
    /// reduction (the same picture), half with another (a different shot); and some originals not
    /// hashed or without a reduction.
    static func photos(_ count: Int, seed: UInt64, copies: UInt64 = 9) -> [Photo] {
        var random = SplitMix64(seed: seed)
        func reduction() -> GreyReduction? {
            let pick = random.next() % 70
            return pick < 64 ? reductions[Int(pick)] : nil
        }
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
                photos.append(Photo(id: id, sha256: sha(random.next()), phash: hash, pixels: pixels,
                                    grey: random.next() % 2 == 0 ? of.grey : reduction()))
            } else {
                photos.append(Photo(id: id, sha256: sha(random.next()), phash: roll == 19 ? nil : random.next(), pixels: pixels,
                                    grey: reduction()))
            }
        }
        return photos
    }

    /// The groups as defined: in listing order, a photo joins the group of the first photo with its
    /// bytes, else that of the nearest earlier photo that starts a group (ties to the earlier) and
    /// passes the check on the two reductions.
    static func direct(_ photos: [Photo], mode: DuplicateMode) -> [Int: DuplicateGrouping.Membership] {
        var group = [Int](repeating: -1, count: photos.count)
        var firstWithBytes: [String: Int] = [:]
        for i in photos.indices {
            if let j = firstWithBytes[photos[i].sha256] { group[i] = group[j]; continue }
            firstWithBytes[photos[i].sha256] = i
            group[i] = i
            guard mode == .near, let hash = photos[i].phash else { continue }
            var candidates: [(distance: Int, position: Int)] = []
            for j in 0..<i where group[j] == j {
                guard let other = photos[j].phash else { continue }
                let distance = (other ^ hash).nonzeroBitCount
                if distance <= DuplicateMode.nearThreshold { candidates.append((distance, j)) }
            }
            let best = candidates.sorted { ($0.distance, $0.position) < ($1.distance, $1.position) }.first { candidate in
                guard let a = photos[candidate.position].grey, let b = photos[i].grey else { return false }
                return CopyCheck(a, b).isCopy
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
                var check: CopyCheck?
                if !sameBytes, let a = photos[shown].grey, let b = photos[position].grey { check = CopyCheck(a, b) }
                groups[photos[position].id] = DuplicateGrouping.Membership(
                    shown: photos[shown].id,
                    distance: sameBytes ? 0 : ((photos[position].phash ?? 0) ^ (photos[shown].phash ?? 0)).nonzeroBitCount,
                    hash: sameBytes ? "sha256" : "phash", check: check, members: position == shown ? positions.map { photos[$0].id } : [])
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
        #expect(passes == (mode == .near ? 4 : 2))
        if mode == .near {
            // Some near pairs are different shots (another reduction), and some near copies are not
            // checked at all (no reduction): both kinds stay apart.
            #expect(grouping.pairsRejected > 50 && grouping.pairsChecked > grouping.pairsRejected + 200)
            #expect(expected.values.contains { $0.check != nil && $0.check!.cellError == 0 })
        }
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

    @Test("the working structures hold at most 16 bytes a photo, and 580 a photo held to check pairs (three photos in twenty copies)")
    func bytesAPhoto() {
        let count = 100_000
        let photos = Self.photos(count, seed: 5, copies: 3)
        let grouping = DuplicateGrouping(mode: .near) { visit in photos.forEach(visit) }
        #expect(grouping.groups.count > count / 20)
        // The reductions held are those of photos in a candidate pair (or in a group), not every photo's.
        #expect(grouping.reductionsHeld > 1_000 && grouping.reductionsHeld < count / 5)
        let perPhoto = Double(grouping.workingBytes - 580 * grouping.reductionsHeld) / Double(count)
        #expect(perPhoto >= 12 && perPhoto <= 16, "\(perPhoto) bytes a photo besides the reductions")
    }
}
