import CColor

/// How the pixels handed to a ``ColorTransform`` are laid out.
enum ColorLayout: Int32, Sendable, Hashable {
    case gray = 1, grayAlpha, rgb, rgba, cmyk, cmykInverted

    init(_ format: PixelFormat) {
        switch format {
        case .gray8: self = .gray
        case .grayAlpha8: self = .grayAlpha
        case .rgb8: self = .rgb
        case .rgba8: self = .rgba
        }
    }

    /// The bitmap format a transform of this layout writes: grey stays grey (on sRGB's tone curve),
    /// CMYK becomes RGB, alpha is kept.
    var outputFormat: PixelFormat {
        switch self {
        case .gray: .gray8
        case .grayAlpha: .grayAlpha8
        case .rgb, .cmyk, .cmykInverted: .rgb8
        case .rgba: .rgba8
        }
    }
}

/// A LittleCMS transform from one profile to sRGB, for one pixel layout. Built without LittleCMS's
/// one-pixel cache, so one instance serves every thread at once; ``ColorTransformCache`` shares it
/// among the photos that carry the same profile.
final class ColorTransform: @unchecked Sendable {
    private let handle: OpaquePointer
    let layout: ColorLayout
    /// No 8-bit value moves by more than one level (a profile equivalent to sRGB): not worth applying.
    let isIdentity: Bool

    /// The transform for `profile`, or why there is none (an unreadable profile, one that does not
    /// fit the pixels, a gamma out of range).
    static func make(_ profile: ColorProfile, layout: ColorLayout) -> Result<ColorTransform, ColorProblem> {
        var identity: Int32 = 0
        var message = [CChar](repeating: 0, count: 320)
        let handle: OpaquePointer?
        switch profile {
        case .icc(let bytes):
            handle = bytes.withUnsafeBufferPointer {
                fg_color_transform_from_icc($0.baseAddress, $0.count, layout.rawValue, &identity, &message, message.count)
            }
        case .pngGamma(let gamma, let chromaticities):
            handle = chromaticities.flatMap { $0.count == 8 ? $0 : nil }.withOptionalPointer {
                fg_color_transform_from_png(gamma, $0, layout.rawValue, &identity, &message, message.count)
            }
        case .nclx(_, let transfer, let chromaticities):
            guard chromaticities.count == 8 else { return .failure(ColorProblem(reason: "nclx without chromaticities")) }
            handle = chromaticities.withUnsafeBufferPointer {
                fg_color_transform_from_cicp($0.baseAddress, Int32(transfer), layout.rawValue, &identity, &message, message.count)
            }
        case .sRGB:
            return .failure(ColorProblem(reason: "an sRGB chunk needs no transform"))
        }
        guard let handle else {
            let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(ColorProblem(reason: text.isEmpty ? "LittleCMS refused the profile" : text))
        }
        return .success(ColorTransform(handle: handle, layout: layout, isIdentity: identity != 0))
    }

    private init(handle: OpaquePointer, layout: ColorLayout, isIdentity: Bool) {
        self.handle = handle
        self.layout = layout
        self.isIdentity = isIdentity
    }

    deinit { fg_color_transform_destroy(handle) }

    /// `bitmap`'s pixels converted to sRGB (same size; the format of ``ColorLayout/outputFormat``).
    func apply(_ bitmap: Bitmap) -> Bitmap {
        precondition(ColorLayout(bitmap.format) == layout, "a \(bitmap.format) bitmap through a \(layout) transform")
        return bitmap.pixels.withUnsafeBytes { source in
            apply(source, bytesPerRow: bitmap.bytesPerRow, width: bitmap.width, height: bitmap.height)
        }
    }

    /// Converts raw rows (`bytesPerRow` apart, in this transform's layout, e.g. CMYK) into a new sRGB bitmap.
    func apply(_ source: UnsafeRawBufferPointer, bytesPerRow: Int, width: Int, height: Int) -> Bitmap {
        let format = layout.outputFormat
        return Bitmap(width: width, height: height, format: format) { destination in
            fg_color_transform_apply(handle, source.baseAddress?.assumingMemoryBound(to: UInt8.self), bytesPerRow,
                                     destination.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                     width * format.channels, UInt32(width), UInt32(height))
        }
    }
}

/// Why a colour profile was not used (the pixels are then taken as sRGB).
struct ColorProblem: Error, Sendable, Hashable {
    let reason: String
}

private extension Optional where Wrapped == [Double] {
    func withOptionalPointer<R>(_ body: (UnsafePointer<Double>?) -> R) -> R {
        switch self {
        case .some(let values): values.withUnsafeBufferPointer { body($0.baseAddress) }
        case .none: body(nil)
        }
    }
}
