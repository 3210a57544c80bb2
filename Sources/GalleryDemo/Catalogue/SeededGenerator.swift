import GallerySync

/// The catalogue's generator: GallerySync's SplitMix64, seeded per item and purpose.
///
/// The catalogue must be identical on every run and every machine, so nothing in it may come from
/// `SystemRandomNumberGenerator`; every photo gets its own generator seeded from its id and a
/// "purpose" salt, so adding a field later does not shift the values of the others.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var mix: SplitMix64

    init(seed: UInt64) {
        mix = SplitMix64(seed: seed)
    }

    /// A generator for one purpose of one item, e.g. `(photoID, .crop)`.
    init(_ id: Int, _ purpose: Purpose, salt: UInt64 = 0) {
        // Mix so that neighbouring ids give unrelated streams.
        var mixer = SeededGenerator(seed: UInt64(bitPattern: Int64(id)) &* 0x9E37_79B9_7F4A_7C15 ^ purpose.rawValue ^ salt)
        mix = SplitMix64(seed: mixer.next())
    }

    mutating func next() -> UInt64 { mix.next() }

    /// A value in `0.0 ..< 1.0` with 53 bits of precision.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// One element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T {
        items[Int(next() % UInt64(items.count))]
    }

    /// Salts for the independent streams of one photo.
    enum Purpose: UInt64 {
        case source = 0x11, crop = 0x22, size = 0x33, format = 0x44, text = 0x55
        case rating = 0x66, nsfw = 0x77, user = 0x88, comments = 0x99, page = 0xAA
    }
}

/// FNV-1a over bytes: a stable hash for fingerprints (Swift's `Hasher` is seeded per process).
struct FNV1a: Sendable {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func combine<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }

    mutating func combine(_ string: String) {
        combine(string.utf8)
        combine(CollectionOfOne(0))
    }

    mutating func combine(_ number: Int) {
        combine(String(number))
    }
}
