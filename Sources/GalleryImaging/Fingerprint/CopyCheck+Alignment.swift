extension CopyCheck {
    /// Where a search left the alignment of `b` on `a`: the scale and offset per axis, and the step the
    /// search would take next (0: it went down to its finest, the alignment a whole ``CopyCheck`` ends at).
    public struct Alignment: Sendable, Hashable {
        /// scaleX, scaleY, offsetX, offsetY, unrounded.
        public var parameters: SIMD4<Double>
        /// The descent's next step: 0.02 for an estimate or the profile fit's placement, 0.01 after the
        /// steps of 0.02, 0 when finished.
        public var nextStep: Double

        public init(_ parameters: SIMD4<Double>, nextStep: Double) {
            (self.parameters, self.nextStep) = (parameters, nextStep)
        }

        /// Whether the search went down to its finest step.
        public var isFinest: Bool { nextStep < finestStep }

        /// Frame C on frame B, from B's alignment on A (`self`) and C's (`other`; nil: C is A itself):
        /// an estimate, which the search takes from its steps of 0.02 (each alignment is off by up to a
        /// step, and their errors add).
        public func relative(_ other: Alignment?) -> Alignment {
            let b = parameters, c = other?.parameters ?? SIMD4(1, 1, 0, 0)
            return Alignment(SIMD4(c[0] / b[0], c[1] / b[1], (c[2] - b[2]) / b[0], (c[3] - b[3]) / b[1]), nextStep: 0.02)
        }
    }

    /// The search's finest step.
    static let finestStep = 0.0025

    /// The verdict on a pair, searched no further than the verdict needs: a pair clearly a copy where
    /// the profile fit lays it (``isClearCopyAtFit``) stops there, before any step; after the steps of
    /// 0.02, a pair clearly not a copy (``isSettled``) or clearly one (``isClearCopy``) stops there;
    /// another goes down to the finest step. The check and where its search stopped, so that
    /// ``init(_:_:from:)`` can finish the alignment later (exactly as ``init(_:_:)-(Frame,Frame)`` would).
    public static func screen(_ a: Frame, _ b: Frame) -> (check: CopyCheck, alignment: Alignment) {
        let scratch = Scratch()
        var (p, best) = start(a, b, scratch)
        let fitted = CopyCheck(p, a, b, scratch)
        if fitted.isClearCopyAtFit { return (fitted, Alignment(p, nextStep: 0.02)) }
        descend(&p, &best, a.fine, b.fine, from: 0.02, to: 0.02, scratch)
        let early = CopyCheck(p, a, b, scratch)
        if early.isSettled || early.isClearCopy { return (early, Alignment(p, nextStep: 0.01)) }
        descend(&p, &best, a.fine, b.fine, from: 0.01, to: finestStep, scratch)
        return (CopyCheck(p, a, b, scratch), Alignment(p, nextStep: 0))
    }

    /// Aligns `b` on `a` from `alignment`: the finer steps from there unless it is the finest already,
    /// and the measurement.
    public init(_ a: Frame, _ b: Frame, from alignment: Alignment) {
        let scratch = Scratch()
        var p = alignment.parameters
        if !alignment.isFinest {
            var best = scratch.error(a.fine, b.fine, p)
            Self.descend(&p, &best, a.fine, b.fine, from: alignment.nextStep, to: Self.finestStep, scratch)
        }
        self = CopyCheck(p, a, b, scratch)
    }

    /// Whether the pair is clearly a copy: every bound of ``isCopy`` met with the margins of
    /// ``isSettled`` to spare.
    var isClearCopy: Bool {
        let (g, c) = (Self.settledSide, Self.settledLevels)
        return outside <= Self.maxOutside - g && trim <= Self.maxTrim - g && coverage >= Self.minCoverage + 2 * g
            && cellError <= Self.maxCellError - c
    }

    /// Whether the pair is clearly a copy where the profile fit alone lays it: ``isClearCopy``, with
    /// twice its coverage margin (0.08). The fit is off in scale by 0.05 on a few pairs, and the steps
    /// then lower the coverage: on the 5,721 candidate pairs of Scripts/bench-cost's photos, the
    /// margin of 0.04 passed 2 pairs that the whole check finds not to be copies (coverage 0.898 and
    /// 0.907 at the fit, 0.845 and 0.849 after the steps); 0.06 none, 0.08 none (1,243 pairs stop here).
    var isClearCopyAtFit: Bool {
        isClearCopy && coverage >= Self.minCoverage + 4 * Self.settledSide
    }
}
