/// Which photos of a gallery are copies of one another, found from the hashes and grey reductions the
/// journal keeps (nothing is decoded again).
///
/// Photos are taken in listing order. A photo joins the group of the first earlier photo with the same
/// SHA-256; else (in `.near` mode) the group whose first photo is nearest by pHash within
/// ``DuplicateMode/nearThreshold`` (ties to the earlier group) among those that ``CopyCheck`` finds to
/// be the same picture on their grey reductions; else it starts a group. A photo without a reduction
/// (journaled by an older version) joins no near group. Comparing with each group's first photo, not
/// its latest, keeps a chain of small changes (a burst of shots) from pulling different pictures into
/// one group. A group shows its largest original (pixels; ties to the first listed).
///
/// Streamed, so that a merge of many shards groups a million photos in about 12 MB (see
/// ``workingBytes``): `photos` hands the photos over up to four times, in the same order.
/// 1. Same bytes: a 64-bit prefix of each SHA-256 and the photo's ordinal (12 bytes a photo), sorted
///    in place; each run of equal prefixes names its first photo, and the others are recorded as its
///    copies (8 bytes a copy).
/// 2. Near (`.near`): the pHash and ordinal of each first-of-its-bytes photo (12 bytes a photo);
///    ``NearPairs`` finds every pair within the threshold (8 bytes a pair), and a walk in listing
///    order joins each photo to its nearest earlier group-starting photo that passes ``CopyCheck``
///    (``CopyCheck/screen(_:_:)``: searched as far as the verdict needs), keeping where the search
///    left it (``GroupAlignments``; with its link, 40 bytes a joined photo). Only when there are
///    pairs, the reductions of the photos in them are read first (580 bytes a photo in a pair;
///    ``ReductionTable``).
/// 3. Only when some photo is in a group: the grouped photos' ids, sizes, hashes and reductions are read
///    again into flat arrays (620 bytes a grouped photo), to choose each group's shown photo and to
///    measure each copy against it, going on from the alignments the near pass found.
/// Between the passes it holds two bits a photo. A very large set of photos that are near one another
/// but not the same bytes costs 8 bytes a pair of them.
public struct DuplicateGrouping: Sendable {
    /// A photo's place in a group of two or more.
    public struct Membership: Sendable, Hashable {
        /// The photo the gallery shows for the group.
        public var shown: Int
        /// Hamming distance between this photo's pHash and the shown one's (0 for the same bytes).
        public var distance: Int
        /// What matched it to the shown photo: `sha256` (same bytes) or `phash` (near duplicate).
        public var hash: String
        /// For a `phash` match, how this photo's frame lies on the shown one's and how they agree
        /// (nil when either has no reduction).
        public var check: CopyCheck? = nil
        /// For the shown photo, the group's photos in listing order (itself among them); empty for the others.
        public var members: [Int]
    }

    /// What the grouping reads of a photo.
    public struct Photo: Sendable {
        public var id: Int
        /// The original's SHA-256, hex.
        public var sha256: String
        /// The pHash's bits, if the original was hashed.
        public var phash: UInt64?
        /// The original's pixel count, to choose the shown photo.
        public var pixels: Int
        /// The grey reduction that checks a pHash match, if the original has one.
        public var grey: GreyReduction?

        public init(id: Int, sha256: String, phash: UInt64?, pixels: Int, grey: GreyReduction? = nil) {
            (self.id, self.sha256, self.phash, self.pixels, self.grey) = (id, sha256, phash, pixels, grey)
        }
    }

    /// Photos in groups of two or more, by id.
    public private(set) var groups: [Int: Membership] = [:]

    /// The most bytes the grouping's working structures held at once (their capacities; the groups it
    /// found, held after, are not counted).
    public private(set) var workingBytes = 0

    /// Candidate pairs (pHashes within the threshold) that ``CopyCheck`` compared, and those it found
    /// to be different pictures.
    public private(set) var pairsChecked = 0, pairsRejected = 0

    /// The most grey reductions held at once (580 bytes each, in ``workingBytes``): those of the photos
    /// in a candidate pair, then those of the grouped photos.
    public private(set) var reductionsHeld = 0

    /// No groups.
    public init() {}

    /// The membership of photo `id`, when it is in a group of two or more.
    public subscript(id: Int) -> Membership? { groups[id] }

    /// Groups the finished entries that `forEach` hands over, in listing order (same order each call).
    public init<E: Error>(mode: DuplicateMode,
                          forEach: ((GalleryState.Entry) -> Void) throws(E) -> Void) throws(E) {
        try self.init(mode: mode) { (visit: (Photo) -> Void) throws(E) in
            try withoutActuallyEscaping(visit) { (visit) throws(E) in
                try forEach { entry in
                    guard entry.isComplete, let original = entry.original else { return }
                    visit(Photo(id: entry.metadata.id, sha256: original.sha256, phash: original.phash?.bits,
                                pixels: (original.width ?? 0) * (original.height ?? 0), grey: original.grey))
                }
            }
        }
    }

    /// Groups the photos that `photos` hands over, in listing order (same photos, same order each call).
    public init<E: Error>(mode: DuplicateMode, photos: ((Photo) -> Void) throws(E) -> Void) throws(E) {
        guard mode != .off else { return }
        // 1. Same bytes.
        var prefixes: [UInt64] = [], hashed = PhotoBits()
        try photos { photo in
            if prefixes.count == prefixes.capacity { prefixes.reserveCapacity(prefixes.count + prefixes.count / 8 + 1_024) }
            prefixes.append(Self.prefix(photo.sha256))
            hashed.append(photo.phash != nil)
        }
        let count = prefixes.count
        precondition(count < NearPairs.photoLimit, "the grouping takes fewer than 2^30 photos")
        var ordinals = (0..<UInt32(count)).map { $0 }
        var first = PhotoBits(count: count, value: true)
        note(Self.bytes(prefixes) + Self.bytes(ordinals) + hashed.byteCount + first.byteCount)
        ParallelSort.sort(&prefixes, &ordinals)
        var copies: [UInt64] = []  // copy << 32 | the first photo with its bytes
        var run = 0
        while run < count {
            var end = run + 1, least = ordinals[run]
            while end < count, prefixes[end] == prefixes[run] {
                least = min(least, ordinals[end])
                end += 1
            }
            for i in run..<end where ordinals[i] != least {
                first[Int(ordinals[i])] = false
                copies.append(UInt64(ordinals[i]) << 32 | UInt64(least))
            }
            run = end
        }
        note(Self.bytes(prefixes) + Self.bytes(ordinals) + hashed.byteCount + first.byteCount + Self.bytes(copies))
        prefixes = []
        ordinals = []
        // 2. Near copies.
        var links: [UInt64] = []  // photo << 32 | the earlier photo whose group it joins
        var alignments = GroupAlignments()  // each link's photo on the group's first, by link
        if mode == .near {
            var hashes: [UInt64] = [], hashOrdinals: [UInt32] = []
            let wanted = (0..<count).reduce(0) { $0 + (first[$1] && hashed[$1] ? 1 : 0) }
            hashes.reserveCapacity(wanted)
            hashOrdinals.reserveCapacity(wanted)
                var ordinal = 0
            try photos { photo in
                defer { ordinal += 1 }
                guard ordinal < count, first[ordinal], let phash = photo.phash, hashes.count < wanted else { return }
                hashes.append(phash)
                hashOrdinals.append(UInt32(ordinal))
            }
            let flags = hashed.byteCount + first.byteCount + Self.bytes(copies)
            let pairs = NearPairs(&hashes, &hashOrdinals, radius: DuplicateMode.nearThreshold)
            note(flags + Self.bytes(hashes) + Self.bytes(hashOrdinals) + pairs.startsBytes + Self.bytes(pairs.pairs))
            hashes = []
            hashOrdinals = []
            // The reductions of the photos in a pair, to check each pair before it merges.
            var reductions = ReductionTable()
            if !pairs.pairs.isEmpty {
                var paired = PhotoBits(count: count, value: false)
                for pair in pairs.pairs {
                    paired[Int(pair >> 34)] = true
                    paired[Int(pair >> 4 & 0x3FFF_FFFF)] = true
                }
                reductions = ReductionTable(capacity: (0..<count).reduce(0) { $0 + (paired[$1] ? 1 : 0) })
                var ordinal = 0
                try photos { photo in
                    defer { ordinal += 1 }
                    guard ordinal < count, paired[ordinal], let grey = photo.grey else { return }
                    reductions.append(ordinal, grey)
                }
                note(flags + paired.byteCount + reductions.byteCount + Self.bytes(pairs.pairs))
                reductionsHeld = reductions.count
            }
            // In listing order: a photo joins the nearest earlier photo still starting its own group
            // that is the same picture.
            var joined = PhotoBits(count: count, value: false)
            var candidates: [(distance: UInt64, earlier: UInt64)] = []
            var frame: CopyCheck.Frame?  // the later photo's, made at its first check
            var p = 0
            while p < pairs.pairs.count {
                let later = pairs.pairs[p] >> 34
                candidates.removeAll(keepingCapacity: true)
                while p < pairs.pairs.count, pairs.pairs[p] >> 34 == later {
                    let earlier = pairs.pairs[p] >> 4 & 0x3FFF_FFFF, distance = pairs.pairs[p] & 0xF
                    if !joined[Int(earlier)] { candidates.append((distance, earlier)) }
                    p += 1
                }
                candidates.sort { ($0.distance, $0.earlier) < ($1.distance, $1.earlier) }
                frame = nil
                for candidate in candidates {
                    guard let a = reductions[Int(candidate.earlier)],
                          let b = frame ?? reductions[Int(later)].map(CopyCheck.Frame.init) else { continue }
                    frame = b
                    pairsChecked += 1
                    let (check, alignment) = CopyCheck.screen(CopyCheck.Frame(a), b)
                    guard check.isCopy else {
                        pairsRejected += 1
                        continue
                    }
                    joined[Int(later)] = true
                    links.append(later << 32 | candidate.earlier)
                    alignments.append(alignment)
                    break
                }
            }
            note(flags + joined.byteCount + reductions.byteCount + Self.bytes(links) + alignments.byteCount + Self.bytes(pairs.pairs))
        }
        guard !links.isEmpty || !copies.isEmpty else { return }
        // 3. The grouped photos in listing order, each with the photo that starts its group (links are
        // in listing order, and a link's earlier photo starts its group).
        func link(_ photo: UInt64) -> Int? { Self.position(of: photo, in: links) }
        func starter(_ photo: UInt64) -> UInt64 { link(photo).map { links[$0] & 0xFFFF_FFFF } ?? photo }
        var grouped: [UInt64] = []  // photo << 32 | the photo that starts its group
        grouped.reserveCapacity(2 * (links.count + copies.count))
        for link in links { grouped += [link, (link & 0xFFFF_FFFF) << 32 | link & 0xFFFF_FFFF] }
        for copy in copies {
            let group = starter(copy & 0xFFFF_FFFF)
            grouped += [(copy >> 32) << 32 | group, (copy & 0xFFFF_FFFF) << 32 | group]
        }
        grouped.sort()
        copies.sort()  // by the copy, to find the photo whose bytes a grouped photo has
        /// The link of `photo`, or of the photo whose bytes it has (nil: it starts its group, or has its bytes).
        func nearLink(_ photo: UInt64) -> Int? {
            link(Self.position(of: photo, in: copies).map { copies[$0] & 0xFFFF_FFFF } ?? photo)
        }
        grouped = grouped.enumerated().filter { $0.offset == 0 || grouped[$0.offset - 1] != $0.element }.map(\.element)
        // Their details, in flat arrays beside `grouped`.
        var ids = [Int](repeating: 0, count: grouped.count), pixels = ids
        var phashes = [UInt64](repeating: 0, count: grouped.count), shas = phashes
        var greys = ReductionTable(capacity: grouped.count)
        var next = 0, ordinal: UInt64 = 0
        try photos { photo in
            defer { ordinal += 1 }
            guard next < grouped.count, grouped[next] >> 32 == ordinal else { return }
            (ids[next], pixels[next], phashes[next], shas[next]) = (photo.id, photo.pixels, photo.phash ?? 0, Self.prefix(photo.sha256))
            if let grey = photo.grey { greys.append(next, grey) }
            next += 1
        }
        note(first.byteCount + Self.bytes(links) + alignments.byteCount + Self.bytes(copies) + Self.bytes(grouped)
             + Self.bytes(ids) + Self.bytes(pixels) + Self.bytes(phashes) + Self.bytes(shas) + greys.byteCount)
        reductionsHeld = max(reductionsHeld, greys.count)
        guard next == grouped.count else { return }  // the photos changed between passes
        // Group by group: the members in listing order, the largest shown (ties to the first listed).
        let order = grouped.indices.sorted { (grouped[$0] & 0xFFFF_FFFF, $0) < (grouped[$1] & 0xFFFF_FFFF, $1) }
        groups.reserveCapacity(grouped.count)
        run = 0
        while run < order.count {
            var end = run + 1
            while end < order.count, grouped[order[end]] & 0xFFFF_FFFF == grouped[order[run]] & 0xFFFF_FFFF { end += 1 }
            let members = order[run..<end]
            let shown = members.max { (pixels[$0], -$0) < (pixels[$1], -$1) }!
            let shownFrame = greys[shown].map(CopyCheck.Frame.init), shownLink = nearLink(grouped[shown] >> 32)
            for member in members {
                let sameBytes = shas[member] == shas[shown]
                var check: CopyCheck?
                if !sameBytes, let shownFrame, let grey = greys[member] {
                    check = alignments.check(shownFrame, CopyCheck.Frame(grey), shownLink: shownLink, memberLink: nearLink(grouped[member] >> 32))
                }
                groups[ids[member]] = Membership(
                    shown: ids[shown], distance: sameBytes ? 0 : (phashes[member] ^ phashes[shown]).nonzeroBitCount,
                    hash: sameBytes ? "sha256" : "phash", check: check, members: member == shown ? members.map { ids[$0] } : [])
            }
            run = end
        }
    }

    /// The first 64 bits of a hex SHA-256 (any other string: its hash value).
    static func prefix(_ sha256: String) -> UInt64 {
        UInt64(sha256.prefix(16), radix: 16) ?? UInt64(truncatingIfNeeded: sha256.hashValue)
    }

    /// Where the pair whose high half is `photo` stands in `pairs` (`photo << 32 | other`, sorted), or nil.
    static func position(of photo: UInt64, in pairs: [UInt64]) -> Int? {
        var (low, high) = (0, pairs.count)
        while low < high {
            let middle = (low + high) / 2
            if pairs[middle] >> 32 < photo { low = middle + 1 } else { high = middle }
        }
        return low < pairs.count && pairs[low] >> 32 == photo ? low : nil
    }

    static func bytes<T>(_ array: [T]) -> Int { array.capacity * MemoryLayout<T>.stride }

    private mutating func note(_ bytes: Int) { workingBytes = max(workingBytes, bytes) }
}
