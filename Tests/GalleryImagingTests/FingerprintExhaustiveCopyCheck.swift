import GalleryImaging

/// The copy check as it was first written (issue 38): the profile fit over the whole grid of scales and
/// offsets, then coordinate descent on all 576 pixels from steps of 0.02 down to 0.0025, for every pair.
/// Kept as the reference the faster ``CopyCheck`` is held to: the same verdicts and nearly the same
/// alignment on real pairs (FingerprintCopyCheckTests).
struct ExhaustiveCopyCheck: Sendable, Hashable, Codable {
    /// Width of B's frame in A's widths (below 1: B shows less of the scene).
    var scaleX: Double
    /// Height of B's frame in A's heights.
    var scaleY: Double
    /// Where B's left edge lies in A's frame, a fraction of A's width (negative: left of A's).
    var offsetX: Double
    /// Where B's top edge lies in A's frame, a fraction of A's height.
    var offsetY: Double
    /// The overlap's share of the larger frame's area.
    var coverage: Double
    /// The most the smaller frame sticks out of the larger at one edge, a fraction of the larger's side.
    var outside: Double
    /// The most the larger frame extends past the smaller at one edge, a fraction of the larger's side.
    var trim: Double
    /// The worst cell's mean absolute difference in grey levels (0-255), over a 6 x 6 grid on the overlap.
    var cellError: Double

    /// The most the smaller frame may stick out of the larger.
    static let maxOutside = 0.035
    /// The most the larger frame may extend past the smaller at one edge.
    static let maxTrim = 0.07
    /// The least share of the larger frame the overlap must cover.
    static let minCoverage = 0.85
    /// The most any cell of the overlap may differ, in grey levels.
    static let maxCellError = 25.0
    /// Cells a side of the grid the error is judged on.
    static let cells = 6

    /// Whether the two are one picture: the same frame or trimmed a few percent, and alike everywhere.
    var isCopy: Bool {
        outside <= Self.maxOutside && trim <= Self.maxTrim && coverage >= Self.minCoverage && cellError <= Self.maxCellError
    }

    /// Aligns `b` on `a` and measures how they agree.
    init(_ a: GreyReduction, _ b: GreyReduction) {
        let planeA = Plane(a), planeB = Plane(b)
        let (sx, dx) = Self.fit(planeA.columns, planeB.columns)
        let (sy, dy) = Self.fit(planeA.rows, planeB.rows)
        var p = [sx, sy, dx, dy]
        var scratch = Scratch()
        var best = scratch.error(planeA, planeB, p)
        for step in [0.02, 0.01, 0.005, 0.0025] {
            var improved = true, rounds = 0
            while improved, rounds < 10 {
                improved = false
                rounds += 1
                for k in 0..<4 {
                    for sign in [-1.0, 1.0] {
                        var q = p
                        q[k] += sign * step
                        guard q[0] >= 0.84, q[0] <= 1.16, q[1] >= 0.84, q[1] <= 1.16, abs(q[2]) <= 0.25, abs(q[3]) <= 0.25 else { continue }
                        let e = scratch.error(planeA, planeB, q)
                        if e < best { (best, p, improved) = (e, q, true) }
                    }
                }
            }
        }
        var cellErrors = [Float](repeating: 0, count: Self.cells * Self.cells)
        let final = scratch.error(planeA, planeB, p, cells: &cellErrors)
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
    }

    /// The scale and offset that best lay profile `b` on profile `a` (means along the other axis).
    static func fit(_ a: [Float], _ b: [Float]) -> (scale: Double, offset: Double) {
        var best = (error: Float.infinity, scale: 1.0, offset: 0.0)
        let n = a.count
        for si in 0...14 {
            let s = 0.86 + 0.02 * Double(si)
            for di in -20...20 {
                let d = 0.01 * Double(di)
                let lo = max(0, d), hi = min(1, d + s)
                guard hi - lo >= 0.6 else { continue }
                var sum: Float = 0
                for i in 0..<n {
                    let xa = lo + (Double(i) + 0.5) / Double(n) * (hi - lo)
                    sum += abs(Plane.interpolate(a, xa) - Plane.interpolate(b, (xa - d) / s))
                }
                let error = sum / Float(n)
                if error < best.error || (error == best.error && abs(s - 1) + abs(d) < abs(best.scale - 1) + abs(best.offset)) {
                    best = (error, s, d)
                }
            }
        }
        return (best.scale, best.offset)
    }

    /// A reduction's pixels as floats, with its column and row means.
    struct Plane {
        var values: [Float]
        var columns: [Float]
        var rows: [Float]

        init(_ reduction: GreyReduction) {
            let n = GreyReduction.side
            values = reduction.pixels.map(Float.init)
            columns = [Float](repeating: 0, count: n)
            rows = columns
            for y in 0..<n {
                for x in 0..<n {
                    columns[x] += values[y * n + x] / Float(n)
                    rows[y] += values[y * n + x] / Float(n)
                }
            }
        }

        /// `profile` (pixel centres at (i + 0.5) / n) at `x` in 0...1, linearly, clamped at the ends.
        static func interpolate(_ profile: [Float], _ x: Double) -> Float {
            let n = profile.count
            let f = min(max(x * Double(n) - 0.5, 0), Double(n - 1))
            let i = Int(f), w = Float(f - Double(i))
            return profile[i] + (profile[min(i + 1, n - 1)] - profile[i]) * w
        }
    }

    /// Where the samples of one comparison fall: per column and per row, each frame's pixel index and
    /// weight (the transform is a scale and offset per axis, so the grid is separable).
    struct Scratch {
        static let samples = GreyReduction.side
        var columnA = [Int](repeating: 0, count: samples), columnB = [Int](repeating: 0, count: samples)
        var rowA = [Int](repeating: 0, count: samples), rowB = [Int](repeating: 0, count: samples)
        var weightXA = [Float](repeating: 0, count: samples), weightXB = [Float](repeating: 0, count: samples)
        var weightYA = [Float](repeating: 0, count: samples), weightYB = [Float](repeating: 0, count: samples)

        /// The mean absolute difference of A and B over their overlap under `p` (scaleX, scaleY,
        /// offsetX, offsetY); infinity when the overlap is under half of either axis.
        mutating func error(_ a: Plane, _ b: Plane, _ p: [Double]) -> Float {
            var none: [Float] = []
            return error(a, b, p, cells: &none)
        }

        /// The same, and each cell's mean into `cells` when it holds ``CopyCheck/cells``² values.
        mutating func error(_ a: Plane, _ b: Plane, _ p: [Double], cells: inout [Float]) -> Float {
            let (sx, sy, dx, dy) = (p[0], p[1], p[2], p[3])
            let x0 = max(0, dx), x1 = min(1, dx + sx), y0 = max(0, dy), y1 = min(1, dy + sy)
            guard x1 - x0 >= 0.5, y1 - y0 >= 0.5 else { return .infinity }
            let m = Self.samples, n = GreyReduction.side
            func place(_ x: Double) -> (Int, Float) {
                let f = min(max(x * Double(n) - 0.5, 0), Double(n - 1))
                return (Int(f), Float(f - Double(Int(f))))
            }
            for i in 0..<m {
                let t = (Double(i) + 0.5) / Double(m)
                let x = x0 + t * (x1 - x0), y = y0 + t * (y1 - y0)
                (columnA[i], weightXA[i]) = place(x)
                (columnB[i], weightXB[i]) = place((x - dx) / sx)
                (rowA[i], weightYA[i]) = place(y)
                (rowB[i], weightYB[i]) = place((y - dy) / sy)
            }
            let perCell = m / ExhaustiveCopyCheck.cells, wantCells = cells.count == ExhaustiveCopyCheck.cells * ExhaustiveCopyCheck.cells
            var total: Float = 0
            a.values.withUnsafeBufferPointer { va in
                b.values.withUnsafeBufferPointer { vb in
                    @inline(__always) func sample(_ v: UnsafeBufferPointer<Float>, _ x: Int, _ wx: Float, _ y: Int, _ wy: Float) -> Float {
                        let x1 = min(x + 1, n - 1), y1 = min(y + 1, n - 1)
                        let top = v[y * n + x] + (v[y * n + x1] - v[y * n + x]) * wx
                        let bottom = v[y1 * n + x] + (v[y1 * n + x1] - v[y1 * n + x]) * wx
                        return top + (bottom - top) * wy
                    }
                    for j in 0..<m {
                        for i in 0..<m {
                            let d = abs(sample(va, columnA[i], weightXA[i], rowA[j], weightYA[j])
                                        - sample(vb, columnB[i], weightXB[i], rowB[j], weightYB[j]))
                            total += d
                            if wantCells { cells[(j / perCell) * ExhaustiveCopyCheck.cells + i / perCell] += d / Float(perCell * perCell) }
                        }
                    }
                }
            }
            return total / Float(m * m)
        }
    }

}
