/// Sorts two parallel arrays, 64-bit keys and a 32-bit value beside each, by key, in place: no third
/// array, no 16-byte (key, value) pairs, so the duplicate grouping's working set stays at 12 bytes an
/// item while it sorts.
///
/// Most-significant-digit radix sort with 8-bit digits, each bucket permuted in place (American flag
/// sort, McIlroy, Bostic and McIlroy, 1993), small ranges by insertion sort on (key, value). Equal keys
/// end up next to one another; in the order of their values only within ranges of at most
/// ``insertionLimit`` items (a run of many equal keys is left in no particular order).
enum ParallelSort {
    /// Ranges this short are sorted by insertion.
    static let insertionLimit = 32

    /// Sorts `keys` ascending, moving each of `values` with its key.
    static func sort(_ keys: inout [UInt64], _ values: inout [UInt32]) {
        precondition(keys.count == values.count, "one value a key")
        keys.withUnsafeMutableBufferPointer { keys in
            values.withUnsafeMutableBufferPointer { values in
                sort(keys.baseAddress, values.baseAddress, 0, keys.count, shift: 56)
            }
        }
    }

    private static func sort(_ keys: UnsafeMutablePointer<UInt64>?, _ values: UnsafeMutablePointer<UInt32>?,
                             _ low: Int, _ high: Int, shift: Int) {
        guard let keys, let values, high - low > 1 else { return }
        if high - low <= insertionLimit {
            for i in (low + 1)..<high {
                let key = keys[i], value = values[i]
                var j = i
                while j > low, (keys[j - 1], values[j - 1]) > (key, value) {
                    keys[j] = keys[j - 1]
                    values[j] = values[j - 1]
                    j -= 1
                }
                keys[j] = key
                values[j] = value
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 512) { table in
            let heads = UnsafeMutableBufferPointer(rebasing: table[0..<256])
            let ends = UnsafeMutableBufferPointer(rebasing: table[256..<512])
            heads.initialize(repeating: 0)
            for i in low..<high { heads[Int((keys[i] >> UInt64(shift)) & 0xFF)] += 1 }
            var start = low
            for digit in 0..<256 {
                let count = heads[digit]
                heads[digit] = start
                start += count
                ends[digit] = start
            }
            // Each item is swapped straight into the next free place of its digit's bucket.
            for digit in 0..<256 {
                var i = heads[digit]
                while i < ends[digit] {
                    let other = Int((keys[i] >> UInt64(shift)) & 0xFF)
                    if other == digit {
                        i += 1
                    } else {
                        let place = heads[other]
                        heads[other] += 1
                        swap(&keys[i], &keys[place])
                        swap(&values[i], &values[place])
                    }
                }
                heads[digit] = i
            }
            guard shift > 0 else { return }
            var low = low
            for digit in 0..<256 {
                sort(keys, values, low, ends[digit], shift: shift - 8)
                low = ends[digit]
            }
        }
    }
}
