/// One bit a photo, by ordinal: the grouping's flags between its passes.
struct PhotoBits: Sendable {
    private var words: [UInt64] = []
    private(set) var count = 0

    /// No bits.
    init() {}

    /// `count` bits, each `value`.
    init(count: Int, value: Bool) {
        words = [UInt64](repeating: value ? ~0 : 0, count: (count + 63) / 64)
        self.count = count
    }

    /// Adds a bit at the end.
    mutating func append(_ bit: Bool) {
        if count % 64 == 0 {
            if words.count == words.capacity { words.reserveCapacity(words.count + words.count / 8 + 16) }
            words.append(0)
        }
        if bit { words[count / 64] |= 1 << UInt64(count % 64) }
        count += 1
    }

    subscript(i: Int) -> Bool {
        get { words[i / 64] & (1 << UInt64(i % 64)) != 0 }
        set {
            if newValue { words[i / 64] |= 1 << UInt64(i % 64) } else { words[i / 64] &= ~(1 << UInt64(i % 64)) }
        }
    }

    /// Bytes held.
    var byteCount: Int { words.capacity * 8 }
}
