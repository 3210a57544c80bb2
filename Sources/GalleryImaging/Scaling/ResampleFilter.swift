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
        case .lanczos3: 3
        case .area: 0.5
        }
    }

    /// The kernel value at distance `x` (in filter units) from the sample centre. Only used by
    /// `.lanczos3`; `.area` weights are interval overlaps, computed directly by `ResampleWeights`.
    func lanczos(_ x: Double) -> Double {
        let a = 3.0
        if x == 0 { return 1 }
        if x <= -a || x >= a { return 0 }
        let px = Double.pi * x
        return a * sin(px) * sin(px / a) / (px * px)
    }
}
