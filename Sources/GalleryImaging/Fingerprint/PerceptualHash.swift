import Foundation

/// A 64-bit perceptual hash (pHash) of an image: the signs, against their median, of the 8x8
/// lowest-frequency DCT-II coefficients of a 32x32 grey reduction. Two copies of one photograph
/// (resized, recompressed, converted, lightly cropped) differ in a few bits; unrelated photos in
/// about 32.
///
/// The definition is the common one, that of Python's `imagehash.phash` (hash size 8, high-frequency
/// factor 4): grey by ITU-R 601-2 luma on 8-bit values, 32x32 ignoring the aspect ratio (area averaged
/// here, Lanczos3 in Pillow: see ``init(of:)``),
/// unnormalised DCT-II along both axes, coefficient (u, v) as bit 63 - (8u + v) (row-major from the
/// top bit, so ``hex`` spells what `str(imagehash.phash(...))` prints). Alpha is ignored, as Pillow's
/// `convert("L")` ignores it. The hash is taken from the upright image: an EXIF-rotated copy hashes
/// as the photo it shows.
public struct PerceptualHash: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 64 bits, coefficient (0, 0) in the top bit.
    public var bits: UInt64

    /// Wraps 64 hash bits.
    public init(bits: UInt64) { self.bits = bits }

    /// Side of the grey reduction the DCT runs on.
    static let side = 32
    /// Coefficients kept per axis.
    static let kept = 8

    /// The hash of `bitmap` (any pixel format; alpha is ignored).
    ///
    /// Reduced in colour, then made grey, and reduced by area averaging where Pillow uses Lanczos3:
    /// the hash keeps only the 8 lowest of 32 frequencies, which the two filters pass alike (the
    /// tests hold it within 2 bits of imagehash), and the area reduction of a 256-pixel thumbnail costs
    /// a third of the Lanczos one (0.05 against 0.15 ms: Scripts/bench-fingerprint).
    public init(of bitmap: Bitmap) {
        bits = Self.hash(Self.grey(Self.reduce(bitmap)))
    }

    /// `bitmap` squeezed into 32x32 pixels, each the mean of the area it covers.
    static func reduce(_ bitmap: Bitmap) -> Bitmap {
        Resampler(filter: .area).scale(bitmap, width: side, height: side)
    }

    /// The hash of 32x32 grey pixels.
    static func hash(_ small: Bitmap) -> UInt64 {
        let k = kept
        let coefficients = coefficients(small)
        let sorted = coefficients.sorted()
        let median = (sorted[k * k / 2 - 1] + sorted[k * k / 2]) / 2
        var bits: UInt64 = 0
        for (index, value) in coefficients.enumerated() where value > median {
            bits |= 1 << UInt64(k * k - 1 - index)
        }
        return bits
    }

    /// The 8x8 lowest-frequency DCT-II coefficients of 32x32 grey pixels, (u, v) at `8u + v`.
    static func coefficients(_ small: Bitmap) -> [Double] {
        let n = side, k = kept
        let table = cosines
        // Rows first: for each of the 32 rows, its 8 lowest horizontal frequencies; then columns. The 8
        // frequencies' sums run side by side, one per lane of a vector (a sum alone waits on its previous
        // addition at every pixel); each lane adds the same products in the same order as one sum at a
        // time, so the coefficients are the same to the bit.
        var rows = [SIMD8<Double>](repeating: .zero, count: n)
        var coefficients = [Double](repeating: 0, count: k * k)
        laneCosines.withUnsafeBufferPointer { lanes in
            rows.withUnsafeMutableBufferPointer { rows in
                small.withUnsafeBytes { pixels in
                    for y in 0..<n {
                        let line = y * small.bytesPerRow
                        var sums = SIMD8<Double>.zero, x = 0
                        while x < n { sums += SIMD8(repeating: Double(pixels[line + x])) * lanes[x]; x += 1 }
                        rows[y] = sums
                    }
                }
            }
        }
        table.withUnsafeBufferPointer { table in
            rows.withUnsafeBufferPointer { rows in
                coefficients.withUnsafeMutableBufferPointer { coefficients in
                    for u in 0..<k {
                        let cosine = table.baseAddress! + u * n
                        var sums = SIMD8<Double>.zero, y = 0
                        while y < n { sums += rows[y] * SIMD8(repeating: cosine[y]); y += 1 }
                        for v in 0..<k { coefficients[u * k + v] = sums[v] }
                    }
                }
            }
        }
        return coefficients
    }

    /// cos(pi * f * (2x + 1) / 64) for the 8 kept frequencies f and 32 positions x.
    private static let cosines: [Double] = (0..<kept).flatMap { f in
        (0..<side).map { x in cos(Double.pi * Double(f) * Double(2 * x + 1) / Double(2 * side)) }
    }

    /// ``cosines`` a position at a time (``CosineLanes``): element x, lane f.
    private static let laneCosines = CosineLanes.lanes(cosines, count: kept, size: side)

    /// One 8-bit grey channel by Pillow's `convert("L")`: (R 299 + G 587 + B 114) / 1000, rounded
    /// (Pillow computes it in 16-bit fixed point: 19595, 38470, 7471 over 65536).
    static func grey(_ bitmap: Bitmap) -> Bitmap {
        let channels = bitmap.format.channels
        if bitmap.format == .gray8 { return bitmap }
        return bitmap.withUnsafeBytes { source in
            Bitmap(width: bitmap.width, height: bitmap.height, format: .gray8) { out in
                for y in 0..<bitmap.height {
                    let row = y * bitmap.bytesPerRow
                    for x in 0..<bitmap.width {
                        let p = row + x * channels
                        if channels < 3 {
                            out[y * bitmap.width + x] = source[p]
                        } else {
                            let luma = UInt32(source[p]) * 19595 + UInt32(source[p + 1]) * 38470
                                + UInt32(source[p + 2]) * 7471 + 0x8000
                            out[y * bitmap.width + x] = UInt8(luma >> 16)
                        }
                    }
                }
            }
        }
    }

    /// Bits that differ between two hashes (0...64).
    public func distance(to other: PerceptualHash) -> Int { (bits ^ other.bits).nonzeroBitCount }

    /// 16 lower-case hex digits, as `imagehash` prints a hash.
    public var hex: String {
        let digits = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash spelled by ``hex``; nil for anything but 16 hex digits.
    public init?(hex: String) {
        guard hex.utf8.count == 16, let value = UInt64(hex, radix: 16) else { return nil }
        bits = value
    }

    public var description: String { hex }

    /// Encoded as its ``hex`` string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let hash = PerceptualHash(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not a 64-bit perceptual hash: \(text)"))
        }
        self = hash
    }

    /// Encodes the ``hex`` string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
