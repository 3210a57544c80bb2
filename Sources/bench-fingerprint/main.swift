import GallerySync
import Foundation
import GalleryKit

// What duplicate detection and placeholders cost (Scripts/bench-fingerprint builds this in release):
//   per photo - the thumbnail work a gallery run does on every photo (decode reduced for 256 px,
//               resample, make upright, encode JPEG q85: the anchor) against what this adds: the pHash,
//               the grey reduction and the ThumbHash from the 256 px bitmap, drawing the ThumbHash into
//               the index's PNG data URI when the index is written, and (per candidate pair, only with
//               --duplicates near) the copy check of two reductions: each photo against itself and
//               against the next photo. Median of ROUNDS passes over the photos.
//   index     - NearHashIndex over N synthetic 64-bit hashes (random, a tenth of them near copies of
//               another at 1-10 bits): build time, bytes, and a lookup within distance 10, against a
//               linear scan of the same hashes (the anchor).
//   grouping  - DuplicateGrouping (.near) over N synthetic photos, made afresh on each of its passes (5% the
//               same bytes as an earlier photo, 5% a pHash 0-10 bits from an earlier one's; one flat grey
//               reduction shared by all, so every candidate pair is checked and passes): time, the bytes
//               a photo its structures held (capacities), and the growth of the process's peak RSS, run
//               first so that nothing else has raised it; against sorting N 64-bit values (the anchor).
//   --journal - instead of the above: a finished gallery's journal (GALLERY, e.g. a Scripts/bench-cost run's
//               output kept with KEEP=1) replayed through the grouping (.near) ROUNDS times (median time),
//               then CopyCheck.screen on every pair of its photos with pHashes within the threshold and
//               different bytes (time a pair, verdicts). With --dump FILE, one line a pair (ids, verdict,
//               the check) and one a grouped photo (its membership), to compare two builds' verdicts.
// Usage: bench-fingerprint DIR [--rounds 5] [--hashes 1000000]
//        bench-fingerprint --journal GALLERY [--rounds 5] [--dump FILE]

func bench() throws {
    var arguments = Array(CommandLine.arguments.dropFirst())
    func option(_ name: String, _ fallback: Int) -> Int {
        guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let value = Int(arguments[i + 1]) else { return fallback }
        arguments.removeSubrange(i...(i + 1))
        return value
    }
    let rounds = option("--rounds", 5)
    let hashCount = option("--hashes", 1_000_000)
    if let i = arguments.firstIndex(of: "--journal"), i + 1 < arguments.count {
        let dump = arguments.firstIndex(of: "--dump").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        try replay(arguments[i + 1], rounds: rounds, dump: dump)
        return
    }
    guard let directory = arguments.first else {
        FileHandle.standardError.write(Data("usage: bench-fingerprint DIR [--rounds N] [--hashes N]\n".utf8))
        exit(2)
    }
    func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try work()
        return (ContinuousClock.now - start) / .seconds(1)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    // The grouping at N photos, first: the peak RSS has seen nothing else yet.
    func peakRSS() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }
    func mix(_ value: UInt64) -> UInt64 {
        var random = SplitMix64(seed: value)
        return random.next()
    }
    /// Photo i's bytes: those of photo i - 7 for one photo in 20, else its own.
    func content(_ i: Int) -> Int { i >= 7 && mix(UInt64(i)) % 20 == 0 ? content(i - 7) : i }
    func phash(_ i: Int) -> UInt64 {
        let roll = mix(UInt64(i)) % 20
        if i >= 7, roll == 0 { return phash(content(i)) }
        guard i >= 13, roll == 1 else { return mix(UInt64(i) ^ 0x5555_5555) }
        var hash = phash(i - 13), flips = mix(UInt64(i) ^ 0xF1F1)
        for _ in 0..<Int(flips % 11) {
            flips /= 11
            hash ^= 1 << (flips % 64)
        }
        return hash
    }
    let before = peakRSS()
    var passes = 0, grouping = DuplicateGrouping()
    let flat = GreyReduction(pixels: [UInt8](repeating: 128, count: GreyReduction.side * GreyReduction.side))!
    let groupingTime = seconds {
        grouping = DuplicateGrouping(mode: .near) { visit in
            passes += 1
            for i in 0..<hashCount {
                let hex = String(mix(UInt64(content(i))), radix: 16)
                visit(DuplicateGrouping.Photo(id: i, sha256: String(repeating: "0", count: 16 - hex.count) + hex + String(repeating: "0", count: 48),
                                              phash: phash(i), pixels: Int(mix(UInt64(i) ^ 0x77) % 4) * 1_000_000, grey: flat))
            }
        }
    }
    let grown = peakRSS() - before
    var values = (0..<hashCount).map { mix(UInt64($0)) }
    let sortTime = seconds { values.sort() }
    print(String(format: "grouping: %d photos (near), %d passes, %.2f s; %d photos in groups; %d pairs checked", hashCount, passes, groupingTime,
                 grouping.groups.count, grouping.pairsChecked))
    print(String(format: "  working structures %.1f MB (%.1f bytes a photo); peak RSS grew %.1f MB (%.1f bytes a photo, the groups found included)",
                 Double(grouping.workingBytes) / 1e6, Double(grouping.workingBytes) / Double(hashCount),
                 Double(grown) / 1e6, Double(grown) / Double(hashCount)))
    print(String(format: "  sorting %d 64-bit values: %.2f s (anchor; the grouping is %.1fx)", hashCount, sortTime, groupingTime / sortTime))
    values = []

    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { ["jpg", "jpeg", "png", "webp"].contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
    let files = try names.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0))) }
    guard !files.isEmpty else { fatalError("no photos in \(directory)") }
    let thumbnailer = Thumbnailer(longestEdge: 256)
    var thumbnailTimes: [Double] = [], hashTimes: [Double] = [], placeholderTimes: [Double] = [], checkTimes: [Double] = []
    var greyBytes = 0
    var placeholderBytes = 0, thumbHashBytes = 0
    for _ in 0..<rounds {
        var bitmaps: [Bitmap] = []
        thumbnailTimes.append(try seconds {
            for (name, bytes) in zip(names, files) {
                let bitmap = try bytes.withUnsafeBytes { try thumbnailer.render($0, name: name) }
                _ = try thumbnailer.encode(bitmap, name: name)
                bitmaps.append(bitmap)
            }
        })
        var hashes: [ThumbHash] = [], greys: [GreyReduction] = []
        hashTimes.append(seconds {
            for bitmap in bitmaps {
                let fingerprint = ImageFingerprint(of: bitmap)
                hashes.append(fingerprint.thumbhash)
                greys.append(fingerprint.grey)
            }
        })
        var copies = 0
        checkTimes.append(seconds {
            for i in greys.indices {
                if CopyCheck(greys[i], greys[i]).isCopy { copies += 1 }
                if CopyCheck(greys[i], greys[(i + 1) % greys.count]).isCopy { copies += 1 }
            }
        })
        precondition(copies >= greys.count, "a photo is a copy of itself")
        // What the grey adds to an original's journal line: `,"grey":` and its base64 string.
        greyBytes = #","grey":"#.utf8.count + (try JSONEncoder().encode(greys[0])).count
        placeholderBytes = 0
        thumbHashBytes = 0
        placeholderTimes.append(try seconds {
            for hash in hashes {
                let png = try ImageEncoder.encodePNG(try hash.decoded(longestEdge: 8))
                placeholderBytes += png.count
                thumbHashBytes += hash.bytes.count
            }
        })
    }
    let n = Double(files.count)
    let (thumb, hash, place) = (median(thumbnailTimes) / n, median(hashTimes) / n, median(placeholderTimes) / n)
    print(String(format: "photos: %d from %@, %d rounds (medians)", files.count, directory, rounds))
    print(String(format: "  thumbnail work (decode, 256 px, upright, JPEG q85): %8.3f ms a photo (anchor)", thumb * 1000))
    print(String(format: "  pHash + grey + ThumbHash from the 256 px bitmap:   %8.3f ms a photo (%.2f%% of the anchor)", hash * 1000, 100 * hash / thumb))
    let check = median(checkTimes) / (2 * n)
    print(String(format: "  copy check of a candidate pair (--duplicates near): %8.3f ms a pair (%.2f%% of the anchor)", check * 1000, 100 * check / thumb))
    print("  grey reduction in the journal's original record: \(greyBytes) bytes a photo")
    print(String(format: "  placeholder (ThumbHash drawn, PNG encoded):         %8.3f ms a photo (%.2f%% of the anchor)", place * 1000, 100 * place / thumb))
    print(String(format: "  ThumbHash %.1f bytes, placeholder PNG %.1f bytes (%.0f as base64) a photo",
                 Double(thumbHashBytes) / n, Double(placeholderBytes) / n, 4 * (Double(placeholderBytes) / n / 3).rounded(.up)))

    // The index at N photos.
    var generator = SplitMix64(seed: 0x1234_5678)  // the same hashes every run
    func nextHash() -> UInt64 { generator.next() }
    var hashes = (0..<hashCount).map { _ in nextHash() }
    for i in stride(from: 0, to: hashCount, by: 10) where i > 0 {
        var near = hashes[Int(nextHash() % UInt64(i))]
        for _ in 0..<(1 + Int(nextHash() % 10)) { near ^= 1 << (nextHash() % 64) }
        hashes[i] = near
    }
    var index: NearHashIndex?
    let build = seconds { index = NearHashIndex(hashes) }
    let queries = stride(from: 0, to: hashCount, by: max(1, hashCount / 10_000)).map { hashes[$0] }
    var found = 0
    let lookup = seconds {
        for query in queries { index!.forEach(within: DuplicateMode.nearThreshold, of: query) { _, _ in found += 1 } }
    } / Double(queries.count)
    var scanned = 0, indexed = 0
    let scanQueries = queries.prefix(200)
    for query in scanQueries { index!.forEach(within: DuplicateMode.nearThreshold, of: query) { _, _ in indexed += 1 } }
    let scan = seconds {
        for query in scanQueries {
            for hash in hashes where (hash ^ query).nonzeroBitCount <= DuplicateMode.nearThreshold { scanned += 1 }
        }
    } / Double(scanQueries.count)
    print(String(format: "index: %d hashes, built in %.2f s, %.1f MB (%.1f bytes a hash)", hashCount, build,
                 Double(index!.byteCount) / 1_000_000, Double(index!.byteCount) / Double(hashCount)))
    print(String(format: "  lookup within %d bits: %.1f us (%.2f found a lookup); linear scan: %.1f us (anchor, %.0fx)",
                 DuplicateMode.nearThreshold, lookup * 1e6, Double(found) / Double(queries.count), scan * 1e6, scan / lookup))
    print("  the scan's \(scanQueries.count) queries: the index found \(indexed), the scan \(scanned)"
          + (indexed == scanned ? " (the same)" : " (THE INDEX MISSED OR INVENTED MATCHES)"))
}

/// The grouping and the copy check replayed on a finished gallery's journal (see the header).
func replay(_ folder: String, rounds: Int, dump: String?) throws {
    func seconds(_ work: () -> Void) -> Double {
        let start = ContinuousClock.now
        work()
        return (ContinuousClock.now - start) / .seconds(1)
    }
    let photos = try Journal(folder: folder).state.orderedEntries.compactMap { entry -> DuplicateGrouping.Photo? in
        guard entry.isComplete, let original = entry.original else { return nil }
        return DuplicateGrouping.Photo(id: entry.metadata.id, sha256: original.sha256, phash: original.phash?.bits,
                                       pixels: (original.width ?? 0) * (original.height ?? 0), grey: original.grey)
    }
    var grouping = DuplicateGrouping(), times: [Double] = []
    for _ in 0..<max(1, rounds) {
        times.append(seconds { grouping = DuplicateGrouping(mode: .near) { visit in photos.forEach(visit) } })
    }
    var lines: [String] = []
    func describe(_ check: CopyCheck?) -> String {
        guard let c = check else { return "-" }
        return "\(c.scaleX) \(c.scaleY) \(c.offsetX) \(c.offsetY) \(c.coverage) \(c.outside) \(c.trim) \(c.cellError)"
    }
    var pairs: [(Int, Int)] = []
    for later in photos.indices {
        guard let hash = photos[later].phash, photos[later].grey != nil else { continue }
        for earlier in 0..<later where photos[earlier].grey != nil && photos[earlier].sha256 != photos[later].sha256 {
            if let other = photos[earlier].phash, (other ^ hash).nonzeroBitCount <= DuplicateMode.nearThreshold { pairs.append((earlier, later)) }
        }
    }
    let frames = photos.map { $0.grey.map(CopyCheck.Frame.init) }
    var copies = 0
    let screenTime = seconds {
        for (earlier, later) in pairs {
            let check = CopyCheck.screen(frames[earlier]!, frames[later]!).check
            if check.isCopy { copies += 1 }
            if dump != nil { lines.append("pair \(photos[earlier].id) \(photos[later].id) \(check.isCopy ? "copy" : "other") \(describe(check))") }
        }
    }
    for (id, membership) in grouping.groups.sorted(by: { $0.key < $1.key }) where dump != nil {
        lines.append("photo \(id) shown \(membership.shown) \(membership.hash) \(membership.distance) \(describe(membership.check))")
    }
    let sorted = times.sorted()
    print(String(format: "journal of %@: %d photos; grouping (near) %.1f ms (median of %d), %d photos in groups, %d pairs checked, %d rejected",
                 folder, photos.count, 1000 * sorted[sorted.count / 2], times.count, grouping.groups.count, grouping.pairsChecked,
                 grouping.pairsRejected))
    print(String(format: "  screen of all %d candidate pairs: %.1f us a pair, %d copies", pairs.count, 1e6 * screenTime / Double(max(1, pairs.count)), copies))
    if let dump { try (lines.joined(separator: "\n") + "\n").write(toFile: dump, atomically: true, encoding: .utf8) }
}

try bench()
