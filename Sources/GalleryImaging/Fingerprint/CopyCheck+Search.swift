extension CopyCheck {
    /// Where the search starts: each axis fitted alone on the profiles, and the error there.
    static func start(_ a: Frame, _ b: Frame, _ scratch: borrowing Scratch) -> (SIMD4<Double>, Float) {
        let (sx, dx) = fit(a.fine.columns, b.fine.columns)
        let (sy, dy) = fit(a.fine.rows, b.fine.rows)
        let p = SIMD4<Double>(sx, sy, dx, dy)
        return (p, scratch.error(a.fine, b.fine, p))
    }

    /// Coordinate descent on the mean absolute difference (`best`, at `p`): each of the four parameters
    /// a step down or up while that lowers it, then each axis's scale a step down or up about the axis's
    /// centre (its offset moved half the step the other way: a crop all round, where the scale and the
    /// offset must change together and single moves stall between them), at most 10 rounds a step, the
    /// step halved from `first` to `last`. A step up is not tried after the step down lowered it: it
    /// leads back.
    static func descend(_ p: inout SIMD4<Double>, _ best: inout Float, _ a: Level, _ b: Level, from first: Double, to last: Double,
                        _ scratch: borrowing Scratch) {
        var step = first
        while step >= last {
            var improved = true, rounds = 0
            while improved, rounds < 10 {
                improved = false
                rounds += 1
                for k in 0..<6 {
                    for sign in stride(from: -1.0, through: 1.0, by: 2.0) {
                        var q = p
                        if k < 4 {
                            q[k] += sign * step
                        } else {
                            // Moves 4 and 5: axis 0 or 1 scaled about its centre (its offset is parameter axis + 2).
                            let axis = k - 4
                            q[axis] += sign * step
                            q[axis + 2] -= sign * step / 2
                        }
                        guard q[0] >= 0.84, q[0] <= 1.16, q[1] >= 0.84, q[1] <= 1.16, abs(q[2]) <= 0.25, abs(q[3]) <= 0.25 else { continue }
                        let e = scratch.error(a, b, q, bound: best)
                        if e < best {
                            (best, p, improved) = (e, q, true)
                            break
                        }
                    }
                }
            }
            step /= 2
        }
    }

    /// The scale and offset that best lay profile `b` on profile `a` (means along the other axis), on
    /// the grid of scales 0.86-1.14 in steps of 0.02 and offsets within +-0.2 in steps of 0.01: first
    /// every other point, then every point around the best two of those (a scale step and
    /// two offset steps either side: a scale of 1.02 about the centre is an offset of -0.01).
    static func fit(_ a: [Float], _ b: [Float]) -> (scale: Double, offset: Double) {
        var best = (error: Float.infinity, scale: 0, offset: 0), second = best
        for scale in stride(from: 0, through: 14, by: 2) {
            for offset in stride(from: -20, through: 20, by: 2) {
                // Past the second best, a point changes neither.
                guard let error = profileError(a, b, scale, offset, bound: second.error) else { continue }
                let previous = best
                take(error, scale, offset, &best)
                if best != previous {
                    second = previous
                } else {
                    take(error, scale, offset, &second)
                }
            }
        }
        var found = best
        for around in [best, second] where around.error.isFinite {
            for scale in max(0, around.scale - 1)...min(14, around.scale + 1) {
                for offset in max(-20, around.offset - 2)...min(20, around.offset + 2) where scale % 2 == 1 || offset % 2 != 0 {
                    if let error = profileError(a, b, scale, offset, bound: found.error) { take(error, scale, offset, &found) }
                }
            }
        }
        return (0.86 + 0.02 * Double(found.scale), 0.01 * Double(found.offset))
    }

    /// Grid point (`scale`, `offset`) with profile error `error` into `best` when lower (ties to the
    /// nearer to no change).
    @inline(__always)
    static func take(_ error: Float, _ scale: Int, _ offset: Int, _ best: inout (error: Float, scale: Int, offset: Int)) {
        func change(_ scale: Int, _ offset: Int) -> Double { abs(0.86 + 0.02 * Double(scale) - 1) + abs(0.01 * Double(offset)) }
        if error < best.error || (error == best.error && change(scale, offset) < change(best.scale, best.offset)) {
            best = (error, scale, offset)
        }
    }

    /// The mean absolute difference of profile `b` laid on `a` at grid point (`scale`, `offset`); nil
    /// where the point is not compared (overlap under 0.6) or the error is sure to lie above `bound`:
    /// the sum of the samples' differences only grows, so the comparison stops once the part summed
    /// (every eight samples) is past it, and what it returns is the whole sum's. The samples' places
    /// and weights come from ``ProfileGrid`` (the same values the interpolation would compute,
    /// computed once a process).
    @inline(__always)
    static func profileError(_ a: [Float], _ b: [Float], _ scale: Int, _ offset: Int, bound: Float) -> Float? {
        let grid = ProfileGrid.shared
        let point = scale * ProfileGrid.offsets + offset + 20
        guard grid.valid[point] else { return nil }
        let n = ProfileGrid.side
        precondition(a.count == n && b.count == n && n % 8 == 0, "profiles of the fine level")
        var sum: Float = 0
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                grid.places.withUnsafeBufferPointer { places in
                    grid.weights.withUnsafeBufferPointer { weights in
                        let place = places.baseAddress! + point * 4 * n, weight = weights.baseAddress! + point * 2 * n
                        for start in stride(from: 0, to: n, by: 8) {
                            for i in start..<start + 8 {
                                let ia = Int(place[4 * i]), ia1 = Int(place[4 * i + 1]), ib = Int(place[4 * i + 2]), ib1 = Int(place[4 * i + 3])
                                let va = a[ia] + (a[ia1] - a[ia]) * weight[2 * i]
                                let vb = b[ib] + (b[ib1] - b[ib]) * weight[2 * i + 1]
                                sum += abs(va - vb)
                            }
                            // sum / n only grows from here: past the bound, it stays past.
                            if sum / Float(n) > bound { return nil }
                        }
                        return sum / Float(n)
                    }
                }
            }
        }
    }
}
