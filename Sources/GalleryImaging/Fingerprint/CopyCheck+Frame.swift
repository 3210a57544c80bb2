extension CopyCheck {
    /// A photo's ``GreyReduction`` made ready for checking: its pixels as floats and their column and
    /// row means. Made once a photo, not once a pair; 2.5 KB.
    public struct Frame: Sendable {
        /// The 24 x 24 pixels.
        let fine: Level

        public init(_ reduction: GreyReduction) {
            fine = Level(side: GreyReduction.side, values: reduction.pixels.map(Float.init))
        }
    }

    /// Square grey pixels as floats, with their column and row means.
    struct Level: Sendable {
        let side: Int
        let values: [Float]
        let columns: [Float]
        let rows: [Float]

        init(side n: Int, values: [Float]) {
            precondition(values.count == n * n, "a square of pixels")
            var columns = [Float](repeating: 0, count: n), rows = columns
            values.withUnsafeBufferPointer { values in
                columns.withUnsafeMutableBufferPointer { columns in
                    for y in 0..<n {
                        var row: Float = 0
                        for x in 0..<n {
                            let share = values[y * n + x] / Float(n)
                            columns[x] += share
                            row += share
                        }
                        rows[y] = row
                    }
                }
            }
            (side, self.values, self.columns, self.rows) = (n, values, columns, rows)
        }
    }

    /// Where the samples of one comparison fall, and the frames' pixels interpolated along the rows
    /// there: room for the largest level, taken once a check (no allocation while it searches). One
    /// pair's frames: what a comparison made is kept for the next few (``slots``), since a step of the
    /// search moves one of the four parameters and lays the samples of the other axis again where an
    /// earlier comparison laid them:
    /// - per horizontal placement of A's samples (their left and right end in A's frame), A's rows
    ///   interpolated at those columns; per horizontal scale and offset, B's;
    /// - per vertical scale and offset, the rows the samples fall between in A and B, and their weights.
    struct Scratch: ~Copyable {
        static let room = GreyReduction.side
        /// Placements kept per cache: the search's current one and the six it tries beside it (a step
        /// down and up of the scale, of the offset, and of the scale about the centre on that axis).
        static let slots = 7
        /// A's and B's rows interpolated at their samples' columns (`room` x `room` a slot), and the rows
        /// and weights of the samples (`room` a slot).
        let alongA, alongB, weightYA, weightYB: UnsafeMutablePointer<Float>
        let rowA, rowB: UnsafeMutablePointer<Int>
        /// The columns (left and right neighbour) and weights of the placement being made (one placement's worth).
        let column, right: UnsafeMutablePointer<Int>
        let weightX: UnsafeMutablePointer<Float>
        /// The three caches' slots: keys (NaN: empty) and when each was last used (the clock at the end).
        let keysA, keysB, keysY: UnsafeMutablePointer<SIMD2<Double>>
        let usedA, usedB, usedY: UnsafeMutablePointer<Int>

        init() {
            let plane = Self.room * Self.room
            func floats(_ count: Int) -> UnsafeMutablePointer<Float> { .allocate(capacity: count) }
            (alongA, alongB) = (floats(Self.slots * plane), floats(Self.slots * plane))
            (weightYA, weightYB, weightX) = (floats(Self.slots * Self.room), floats(Self.slots * Self.room), floats(Self.room))
            (rowA, rowB) = (.allocate(capacity: Self.slots * Self.room), .allocate(capacity: Self.slots * Self.room))
            (column, right) = (.allocate(capacity: Self.room), .allocate(capacity: Self.room))
            func keys() -> UnsafeMutablePointer<SIMD2<Double>> {
                let keys = UnsafeMutablePointer<SIMD2<Double>>.allocate(capacity: Self.slots)
                keys.initialize(repeating: SIMD2(repeating: .nan), count: Self.slots)
                return keys
            }
            func used() -> UnsafeMutablePointer<Int> {
                let used = UnsafeMutablePointer<Int>.allocate(capacity: Self.slots + 1)
                used.initialize(repeating: 0, count: Self.slots + 1)
                return used
            }
            (keysA, keysB, keysY) = (keys(), keys(), keys())
            (usedA, usedB, usedY) = (used(), used(), used())
        }

        deinit {
            for pointer in [alongA, alongB, weightYA, weightYB, weightX] { pointer.deallocate() }
            for pointer in [rowA, rowB, column, right, usedA, usedB, usedY] { pointer.deallocate() }
            for pointer in [keysA, keysB, keysY] { pointer.deallocate() }
        }

        /// The slot of `key` in a cache, and whether it is new there (then the least recently used slot,
        /// to be filled).
        @inline(__always)
        private static func slot(_ key: SIMD2<Double>, _ keys: UnsafeMutablePointer<SIMD2<Double>>,
                                 _ used: UnsafeMutablePointer<Int>) -> (slot: Int, fresh: Bool) {
            used[slots] += 1
            var slot = -1, oldest = 0
            for k in 0..<slots {
                if keys[k] == key { slot = k }
                if used[k] < used[oldest] { oldest = k }
            }
            let fresh = slot < 0
            if fresh {
                slot = oldest
                keys[slot] = key
            }
            used[slot] = used[slots]
            return (slot, fresh)
        }

        /// The mean absolute difference of A and B over their overlap under `p` (scaleX, scaleY,
        /// offsetX, offsetY), sampled at side x side points (bilinear in each); infinity when the overlap
        /// is under half of either axis. With `cells`, also each cell's mean of a ``CopyCheck/cells``²
        /// grid into it. Without `cells`, infinity as soon as the mean is sure to be `bound` or more (a
        /// search asks only whether a placement does better than its best).
        func error(_ a: Level, _ b: Level, _ p: SIMD4<Double>, cells: UnsafeMutablePointer<Float>? = nil, bound: Float = .infinity) -> Float {
            let (sx, sy, dx, dy) = (p[0], p[1], p[2], p[3])
            let x0 = max(0, dx), x1 = min(1, dx + sx), y0 = max(0, dy), y1 = min(1, dy + sy)
            guard x1 - x0 >= 0.5, y1 - y0 >= 0.5 else { return .infinity }
            let n = a.side, m = n
            precondition(n <= Self.room && b.side == n && n % 8 == 0, "levels of one size (a multiple of 8 pixels), within the scratch's room")
            @inline(__always) func place(_ x: Double, _ index: UnsafeMutablePointer<Int>, _ weight: UnsafeMutablePointer<Float>, _ i: Int) {
                let f = min(max(x * Double(n) - 0.5, 0), Double(n - 1))
                index[i] = Int(f)
                weight[i] = Float(f - Double(Int(f)))
            }
            @inline(__always) func t(_ i: Int) -> Double { (Double(i) + 0.5) / Double(m) }
            // The samples' rows and weights in A and B: kept, or placed now.
            let rows = Self.slot(SIMD2(sy, dy), keysY, usedY)
            let rowA = self.rowA + rows.slot * Self.room, rowB = self.rowB + rows.slot * Self.room
            let weightYA = self.weightYA + rows.slot * Self.room, weightYB = self.weightYB + rows.slot * Self.room
            if rows.fresh {
                for i in 0..<m {
                    let y = y0 + t(i) * (y1 - y0)
                    place(y, rowA, weightYA, i)
                    place((y - dy) / sy, rowB, weightYB, i)
                }
            }
            // Each frame's rows interpolated at its samples' columns: kept, or made now.
            let inA = Self.slot(SIMD2(x0, x1), keysA, usedA), inB = Self.slot(SIMD2(sx, dx), keysB, usedB)
            let alongA = self.alongA + inA.slot * Self.room * Self.room, alongB = self.alongB + inB.slot * Self.room * Self.room
            return a.values.withUnsafeBufferPointer { va in
                b.values.withUnsafeBufferPointer { vb in
                    // Along the rows the samples touch: each row at the samples' columns.
                    // Four samples at a time: their left and right neighbours gathered, then interpolated
                    // together (each lane computes what one sample alone would).
                    func along(_ v: UnsafeBufferPointer<Float>, into out: UnsafeMutablePointer<Float>) {
                        for i in 0..<m { right[i] = min(column[i] + 1, n - 1) }
                        for r in 0..<n {
                            let line = v.baseAddress! + r * n, target = out + r * m
                            for i in stride(from: 0, to: m, by: 4) {
                                let left = SIMD4(line[column[i]], line[column[i + 1]], line[column[i + 2]], line[column[i + 3]])
                                let next = SIMD4(line[right[i]], line[right[i + 1]], line[right[i + 2]], line[right[i + 3]])
                                let weight = UnsafeRawPointer(weightX + i).loadUnaligned(as: SIMD4<Float>.self)
                                UnsafeMutableRawPointer(target + i).storeBytes(of: left + (next - left) * weight, as: SIMD4<Float>.self)
                            }
                        }
                    }
                    if inA.fresh {
                        for i in 0..<m { place(x0 + t(i) * (x1 - x0), column, weightX, i) }
                        along(va, into: alongA)
                    }
                    if inB.fresh {
                        for i in 0..<m { place((x0 + t(i) * (x1 - x0) - dx) / sx, column, weightX, i) }
                        along(vb, into: alongB)
                    }
                    // Eight columns at a time (three strides a row of 24), as two halves of four: written
                    // as eight lanes, the compiler did some lanes one at a time. The sums are the same
                    // eight lanes' either way.
                    var low = SIMD4<Float>(), high = SIMD4<Float>()
                    @inline(__always) func row(_ j: Int, _ each: (Int, SIMD4<Float>, SIMD4<Float>) -> Void) {
                        let ya = rowA[j], yb = rowB[j]
                        let topA = alongA + ya * m, bottomA = alongA + min(ya + 1, n - 1) * m
                        let topB = alongB + yb * m, bottomB = alongB + min(yb + 1, n - 1) * m
                        let wa = SIMD4<Float>(repeating: weightYA[j]), wb = SIMD4<Float>(repeating: weightYB[j])
                        @inline(__always) func difference(_ i: Int) -> SIMD4<Float> {
                            @inline(__always) func load(_ pointer: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
                                UnsafeRawPointer(pointer + i).loadUnaligned(as: SIMD4<Float>.self)
                            }
                            let ta = load(topA), tb = load(topB)
                            let sa: SIMD4<Float> = ta + (load(bottomA) - ta) * wa
                            let sb: SIMD4<Float> = tb + (load(bottomB) - tb) * wb
                            // The absolute value by clearing the sign bits (pointwiseMax compiles to a compare a lane).
                            return unsafeBitCast(unsafeBitCast(sa - sb, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
                        }
                        for i in stride(from: 0, to: m, by: 8) {
                            let d0 = difference(i), d1 = difference(i + 4)
                            low += d0
                            high += d1
                            each(i, d0, d1)
                        }
                    }
                    if let cells {
                        let perCell = m / CopyCheck.cells, cellWeight = 1 / Float(perCell * perCell)
                        for j in 0..<m {
                            row(j) { i, d0, d1 in
                                let d = SIMD8(lowHalf: d0, highHalf: d1)
                                for k in 0..<8 { cells[(j / perCell) * CopyCheck.cells + (i + k) / perCell] += d[k] * cellWeight }
                            }
                        }
                    } else {
                        for j in 0..<m {
                            row(j) { _, _, _ in }
                            // Each lane's sum and their total only grow: once past the bound, the mean stays past.
                            if j % 4 == 3, SIMD8(lowHalf: low, highHalf: high).sum() / Float(m * m) >= bound { return .infinity }
                        }
                    }
                    return SIMD8(lowHalf: low, highHalf: high).sum() / Float(m * m)
                }
            }
        }
    }
}
