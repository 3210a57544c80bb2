import CColor

/// The colour space a file declares for its pixels. A file that declares none is read as sRGB, as
/// browsers do.
public enum ColorProfile: Sendable, Hashable, CustomStringConvertible {
    /// An embedded ICC profile, byte for byte: JPEG APP2 `ICC_PROFILE` segments (joined) or PNG `iCCP`
    /// (decompressed).
    case icc([UInt8])
    /// A PNG `sRGB` chunk: the pixels are sRGB.
    case sRGB
    /// A PNG `gAMA` chunk (the file gamma, e.g. 0.45455 for 1/2.2) and, when the file has one, its
    /// `cHRM` chromaticities: white x, y, then red, green and blue x, y (eight numbers).
    case pngGamma(Double, chromaticities: [Double]?)
    /// A HEIF or AVIF `colr` box of type `nclx` (ITU-T H.273 code points): its colour primaries'
    /// chromaticities (white x, y, then red, green and blue x, y) and its transfer characteristics
    /// (13 is sRGB's curve). The matrix and range were applied by the decoder.
    case nclx(primaries: Int, transfer: Int, chromaticities: [Double])

    /// The ICC profile's own description (`desc` tag), if it has one that can be read.
    public var name: String? {
        guard case .icc(let bytes) = self else { return nil }
        var text = [CChar](repeating: 0, count: 256)
        bytes.withUnsafeBufferPointer { fg_color_profile_description($0.baseAddress, $0.count, &text, text.count) }
        let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// Whether converting to sRGB would change nothing (an `sRGB` chunk, or `gAMA` 1/2.2 alone,
    /// which viewers show as sRGB). Embedded ICC profiles equivalent to sRGB are found when their
    /// transform is built (see `ColorTransform.isIdentity`).
    var isSRGB: Bool {
        switch self {
        case .icc: false
        case .sRGB: true
        case .pngGamma(let gamma, let chromaticities): chromaticities == nil && abs(gamma - 1 / 2.2) < 0.002
        // BT.709 (or unspecified) primaries on sRGB's curve or BT.709's family, shown as sRGB by browsers.
        case .nclx(let primaries, let transfer, _): [1, 2].contains(primaries) && [1, 2, 6, 13, 14, 15].contains(transfer)
        }
    }

    /// `ICC profile "Adobe RGB (1998)" (560 bytes)`, `sRGB chunk`, `gAMA 0.45455 + cHRM`.
    public var description: String {
        switch self {
        case .icc(let bytes):
            "ICC profile" + (name.map { " \"\($0)\"" } ?? "") + " (\(bytes.count) bytes)"
        case .sRGB:
            "sRGB chunk"
        case .pngGamma(let gamma, let chromaticities):
            "gAMA \(gamma)" + (chromaticities == nil ? "" : " + cHRM")
        case .nclx(let primaries, let transfer, _):
            "nclx (primaries \(primaries), transfer \(transfer))"
        }
    }
}
