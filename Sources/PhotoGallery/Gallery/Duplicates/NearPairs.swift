/// Every pair of photos whose pHashes are within a distance, found with no index beside the photos:
/// one table at a time (see ``HashPieces``), the (hash, photo) arrays themselves are re-keyed to the
/// table's piece and sorted in place, and each bucket is compared with the buckets within that
/// piece's radius. Memory: the two arrays (12 bytes a photo), one table's 65,537 bucket starts, and
/// the pairs found (8 bytes a pair).
///
/// A pair is reported once, at the first piece that finds it. Comparisons at n photos: about
/// (n / 65,536)^2 x 65,536 x (68 + 68 + 68 + 8) at distance 10, 3 x 10^9 at a million photos.
struct NearPairs {
    /// Photos are numbered below 2^30: a pair is later photo << 34 | earlier photo << 4 | distance.
    static let photoLimit = 1 << 30

    /// The pairs, ascending: each photo's pairs with earlier photos together, in listing order, nearest first.
    private(set) var pairs: [UInt64] = []
    /// Bytes of the bucket starts, while they were held.
    let startsBytes: Int

    /// Finds the pairs among `hashes` (the pHash of photo `ordinals[i]`) within `radius`. Both arrays
    /// are left permuted, and `hashes` re-keyed: they are scratch space.
    init(_ hashes: inout [UInt64], _ ordinals: inout [UInt32], radius: Int) {
        precondition(hashes.count == ordinals.count, "one photo a hash")
        precondition(radius < 16 && ordinals.allSatisfy { Int($0) < Self.photoLimit }, "photos are numbered below 2^30")
        let radii = HashPieces.radii(radius)
        var starts = [UInt32](repeating: 0, count: 65_537)
        startsBytes = starts.capacity * 4
        var found: [UInt64] = []
        var piece = -1  // the piece `hashes` is keyed to (-1: plain hashes)
        for table in 0..<HashPieces.count where radii[table] >= 0 {
            for i in hashes.indices {
                let hash = piece < 0 ? hashes[i] : HashPieces.hash(hashes[i], piece)
                hashes[i] = HashPieces.key(hash, table)
            }
            piece = table
            ParallelSort.sort(&hashes, &ordinals)
            for i in starts.indices { starts[i] = 0 }
            for key in hashes { starts[Int(key >> 48) + 1] += 1 }
            for v in 0..<65_536 { starts[v + 1] += starts[v] }
            let masks = HashPieces.masks(radii[table])
            hashes.withUnsafeBufferPointer { keys in
                ordinals.withUnsafeBufferPointer { ordinals in
                    starts.withUnsafeBufferPointer { starts in
                        @inline(__always) func compare(_ a: Int, _ b: Int) {
                            let difference = keys[a] ^ keys[b]
                            let distance = difference.nonzeroBitCount
                            guard distance <= radius,
                                  !HashPieces.foundEarlier(HashPieces.hash(difference, table), before: table, radii: radii)
                            else { return }
                            let (x, y) = (UInt64(ordinals[a]), UInt64(ordinals[b]))
                            found.append((x > y ? x << 34 | y << 4 : y << 34 | x << 4) | UInt64(distance))
                        }
                        for v in 0..<65_536 where starts[v] < starts[v + 1] {
                            let bucket = Int(starts[v])..<Int(starts[v + 1])
                            for mask in masks {
                                let w = v ^ Int(mask)
                                if w == v {
                                    for a in bucket { for b in (a + 1)..<bucket.upperBound { compare(a, b) } }
                                } else if w > v {
                                    for a in bucket { for b in Int(starts[w])..<Int(starts[w + 1]) { compare(a, b) } }
                                }
                            }
                        }
                    }
                }
            }
        }
        found.sort()
        pairs = found
    }
}
