import Foundation

/// The reconstruction filter a ``Resampler`` uses once any integer box shrink is done.
public enum ResampleFilter: String, Sendable, Hashable, CaseIterable {
    /// Windowed sinc with three lobes: sharp, little aliasing. The default, as in libvips and Pillow.
    case lanczos3
    /// Exact area averaging: each output pixel is the mean of the source area it covers, with
    /// fractional weights at the edges. Softer than Lanczos, never rings (no overshoot).
    case area

    /// Half-width of the kernel in source pixels at scale 1; widened by the scale factor when reducing.
    var support: Double {
        switch self {
        case .lanczos3: Self.lobes
        case .area: 0.5
        }
    }

    /// The kernel value at distance `x` (in filter units) from the sample centre. Only used by
    /// `.lanczos3`; `.area` weights are interval overlaps, computed directly by `ResampleWeights`.
    func lanczos(_ x: Double) -> Double {
        if x == 0 { return 1 }
        if x <= -Self.lobes || x >= Self.lobes { return 0 }
        let px = Double.pi * x
        return Self.lanczos(px: px, sine: sin(px), lobeSine: sin(px / Self.lobes))
    }

    /// Lanczos3's lobes: its support at scale 1, and the divisor of its window's argument.
    static let lobes = 3.0

    /// The kernel at `px` = pi x (x inside the support, not 0) from sin(px) and sin(px / 3): the one formula
    /// of ``lanczos(_:)`` and ``LanczosWalk``, which carries the sines from tap to tap.
    @inline(__always)
    static func lanczos(px: Double, sine: Double, lobeSine: Double) -> Double {
        lobes * sine * lobeSine / (px * px)
    }
}

/// ``ResampleFilter/lanczos(_:)`` at positions a fixed `step` apart (one output pixel's taps): the two sines
/// carried from one tap to the next by rotation through the step's sine and cosine, so a pixel costs two sines
/// and two cosines instead of two sines a tap (the weights were 3% of a thumbnail's CPU). Each value agrees with
/// ``ResampleFilter/lanczos(_:)`` to about 1e-14 over a pixel's taps.
struct LanczosWalk {
    private let sinStep: Double, cosStep: Double, sinLobeStep: Double, cosLobeStep: Double
    private var sine = 0.0, cosine = 1.0, lobeSine = 0.0, lobeCosine = 1.0

    init(step: Double) {
        (sinStep, cosStep) = (sin(.pi * step), cos(.pi * step))
        (sinLobeStep, cosLobeStep) = (sin(.pi * step / ResampleFilter.lobes), cos(.pi * step / ResampleFilter.lobes))
    }

    /// Starts a pixel's taps at position `x`.
    mutating func start(at x: Double) {
        (sine, cosine) = (sin(.pi * x), cos(.pi * x))
        (lobeSine, lobeCosine) = (sin(.pi * x / ResampleFilter.lobes), cos(.pi * x / ResampleFilter.lobes))
    }

    /// The kernel at `x`, the position the walk stands at (the start, then one step further each call).
    mutating func next(at x: Double) -> Double {
        let value: Double
        if abs(x) < 0.5 {
            // Near the centre the sines are about as small as their error: a position that should be 0 and
            // lies 1e-15 from it would be far off. Computed directly there (one or two taps a pixel).
            value = ResampleFilter.lanczos3.lanczos(x)
        } else if x <= -ResampleFilter.lobes || x >= ResampleFilter.lobes {
            value = 0
        } else {
            value = ResampleFilter.lanczos(px: Double.pi * x, sine: sine, lobeSine: lobeSine)
        }
        (sine, cosine) = (sine * cosStep + cosine * sinStep, cosine * cosStep - sine * sinStep)
        (lobeSine, lobeCosine) = (lobeSine * cosLobeStep + lobeCosine * sinLobeStep,
                                  lobeCosine * cosLobeStep - lobeSine * sinLobeStep)
        return value
    }
}
