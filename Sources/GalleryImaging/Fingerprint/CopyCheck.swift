/// Whether two photos are one picture, from their ``GreyReduction``s: the scale and offset that best lay
/// one frame on the other, and how well the two then agree. What `--duplicates near` asks of a pair of
/// photos whose pHashes are near before it merges them: a pHash moves as much for a 5% crop (a copy) as
/// for a 10% pan or a changed tenth of the frame (other photographs), so it only finds the candidates.
///
/// The alignment: frame B lies in frame A's coordinates (each axis 0...1 across A) as the rectangle
/// `offset ... offset + scale` per axis, scale 0.86-1.14. First each axis alone, on the frames' column
/// and row means (scale steps of 0.02 and offsets of 0.01 within +-0.2: every other point of that grid,
/// then every point around the best two); then all four together on the 24 x 24 pixels, by coordinate
/// descent (one edge of an axis moved, or the axis scaled about its centre), on the mean absolute
/// difference over the overlap (24 x 24 bilinear samples of each): steps of 0.02, and unless the pair is
/// clearly not a copy there (``isSettled``), down to 0.0025. A ``Frame`` holds what the search reads of
/// one photo, made once a photo. About 380 profile comparisons and 71 image comparisons a pair when the
/// grouping screens Scripts/bench-cost's candidate pairs; a comparison that a search asks only whether
/// it beats the best so far stops once its partial sum says no (`Scripts/bench-fingerprint` times it;
/// docs/DUPLICATES.md).
///
/// The verdict (``isCopy``): the smaller frame lies inside the larger (sticks out at most
/// ``maxOutside`` of a side: two frames of one burst 10% apart each show 12% the other lacks), the
/// larger extends past it by at most ``maxTrim`` at any edge (a copy cropped 5% lacks 5%; a frame
/// panned 10% and resized back lacks 10%) and the overlap covers at least ``minCoverage`` of the
/// larger's area, and no cell of a 6 x 6 grid over the overlap differs by more than ``maxCellError``
/// grey levels on average (a changed tenth of the frame fills a cell or more; the mean over the whole
/// frame would hide it), nor does a cell apart from the worst one (two cells or more away) differ
/// ``maxApartRatio`` times the median cell or more (and over ``minApartLevels``): an object moved within
/// an otherwise identical frame differs in two places and nowhere else, while a copy's resampling spreads
/// its error over the frame. Measured on the duplicate tests' copies and burst frames of 14 photographs
/// (DuplicateDetectionTests prints the table): copies' worst cell 0.2-22.5 levels and edges 0-6.0%
/// short; changed tenths 37 levels or more; pans of 10% 7.8-10% short (or 12% outside).
public struct CopyCheck: Sendable, Hashable, Codable {
    /// Width of B's frame in A's widths (below 1: B shows less of the scene).
    public var scaleX: Double
    /// Height of B's frame in A's heights.
    public var scaleY: Double
    /// Where B's left edge lies in A's frame, a fraction of A's width (negative: left of A's).
    public var offsetX: Double
    /// Where B's top edge lies in A's frame, a fraction of A's height.
    public var offsetY: Double
    /// The overlap's share of the larger frame's area.
    public var coverage: Double
    /// The most the smaller frame sticks out of the larger at one edge, a fraction of the larger's side.
    public var outside: Double
    /// The most the larger frame extends past the smaller at one edge, a fraction of the larger's side.
    public var trim: Double
    /// The worst cell's mean absolute difference in grey levels (0-255), over a 6 x 6 grid on the overlap.
    public var cellError: Double
    /// The worst cell two cells or more away from the worst one (Chebyshev distance), in grey levels.
    /// Not in the encoded form (gallery.json shows the alignment): a decoded check has 0 here.
    public var apartCellError: Double = 0
    /// The median cell's difference, in grey levels (not encoded either).
    public var medianCellError: Double = 0

    /// The most the smaller frame may stick out of the larger.
    public static let maxOutside = 0.035
    /// The most the larger frame may extend past the smaller at one edge.
    public static let maxTrim = 0.07
    /// The least share of the larger frame the overlap must cover.
    public static let minCoverage = 0.85
    /// The most any cell of the overlap may differ, in grey levels.
    public static let maxCellError = 25.0
    /// Cells a side of the grid the error is judged on.
    static let cells = 6
    /// How many times the median cell a second place may differ before the pair is two frames with
    /// something moved: copies measured up to 6.9 (a crop all round), a patch of the photo moved across
    /// it about 11 and more (DuplicateDetectionTests).
    public static let maxApartRatio = 9.0
    /// Below this a second place's difference is resampling noise whatever the median (in grey levels).
    public static let minApartLevels = 4.0
    /// The median under which the ratio is taken against this instead (a copy's median can be 0.0).
    static let medianFloor = 0.5

    /// Whether the two are one picture: the same frame or trimmed a few percent, and alike everywhere.
    public var isCopy: Bool {
        outside <= Self.maxOutside && trim <= Self.maxTrim && coverage >= Self.minCoverage && cellError <= Self.maxCellError
            && !movedWithin
    }

    /// Two places differ and the rest agrees: something moved within the frame.
    public var movedWithin: Bool {
        apartCellError > Self.minApartLevels && apartCellError > Self.maxApartRatio * max(medianCellError, Self.medianFloor)
    }

    /// Aligns `b` on `a` and measures how they agree.
    public init(_ a: GreyReduction, _ b: GreyReduction) {
        self.init(Frame(a), Frame(b))
    }

    /// Aligns `b` on `a` and measures how they agree, from frames made once a photo.
    public init(_ a: Frame, _ b: Frame) {
        let scratch = Scratch()
        var (p, best) = Self.start(a, b, scratch)
        Self.descend(&p, &best, a.fine, b.fine, from: 0.02, to: 0.02, scratch)
        let early = CopyCheck(p, a, b, scratch)
        if early.isSettled {
            self = early
            return
        }
        Self.descend(&p, &best, a.fine, b.fine, from: 0.01, to: 0.0025, scratch)
        self = CopyCheck(p, a, b, scratch)
    }

    /// How far outside a bound of ``isCopy`` the alignment after the steps of 0.02 must lie for the pair
    /// to be rejected without the finer steps: 0.02 of a side (0.04 of coverage) or 8 grey levels. The
    /// finer steps move a side by 0.01 or less on nearly every pair. A pair that passes is always taken
    /// down to the finest step, so that the alignment the gallery shows for a copy is the finest one.
    static let settledSide = 0.02, settledLevels = 8.0

    /// Whether the pair is clearly not a copy: a bound missed by the margins above.
    var isSettled: Bool {
        let (g, c) = (Self.settledSide, Self.settledLevels)
        return outside > Self.maxOutside + g || trim > Self.maxTrim + g || coverage < Self.minCoverage - 2 * g
            || cellError > Self.maxCellError + c
    }

    /// Frame `b` laid on `a` under `p` (scaleX, scaleY, offsetX, offsetY), measured.
    init(_ p: SIMD4<Double>, _ a: Frame, _ b: Frame, _ scratch: borrowing Scratch) {
        var cellErrors = [Float](repeating: 0, count: Self.cells * Self.cells)
        let final = cellErrors.withUnsafeMutableBufferPointer { scratch.error(a.fine, b.fine, p, cells: $0.baseAddress) }
        let overlap = max(0, min(1, p[2] + p[0]) - max(0, p[2])) * max(0, min(1, p[3] + p[1]) - max(0, p[3]))
        // The smaller frame's edges in the larger's coordinates.
        let inner: (x: Double, w: Double, y: Double, h: Double) = p[0] * p[1] <= 1
            ? (p[2], p[0], p[3], p[1]) : (-p[2] / p[0], 1 / p[0], -p[3] / p[1], 1 / p[1])
        // Kept to what the measurement resolves (the manifest shows them): 0.001 of a side, 0.1 level.
        func rounded(_ value: Double, _ scale: Double = 1_000) -> Double { (value * scale).rounded() / scale + 0 }
        (scaleX, scaleY, offsetX, offsetY) = (rounded(p[0]), rounded(p[1]), rounded(p[2]), rounded(p[3]))
        coverage = rounded(overlap / max(1, p[0] * p[1]))
        outside = rounded(max(0, -inner.x, inner.x + inner.w - 1, -inner.y, inner.y + inner.h - 1))
        trim = rounded(max(0, inner.x, 1 - inner.x - inner.w, inner.y, 1 - inner.y - inner.h))
        cellError = final.isFinite ? rounded(Double(cellErrors.max() ?? 255), 10) : 255
        if final.isFinite, let worst = cellErrors.indices.max(by: { cellErrors[$0] < cellErrors[$1] }) {
            let n = Self.cells
            let apart = cellErrors.indices.filter { max(abs($0 / n - worst / n), abs($0 % n - worst % n)) >= 2 }.map { cellErrors[$0] }
            apartCellError = rounded(Double(apart.max() ?? 0), 10)
            medianCellError = rounded(Double(cellErrors.sorted()[cellErrors.count / 2]), 10)
        }
    }

    enum CodingKeys: String, CodingKey {
        case scaleX = "scale_x", scaleY = "scale_y", offsetX = "offset_x", offsetY = "offset_y"
        case coverage, outside, trim
        case cellError = "cell_error"
    }
}
