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
            var columns = [Float](repeating: 0, count: n), rows = columns
            for y in 0..<n {
                for x in 0..<n {
                    columns[x] += values[y * n + x] / Float(n)
                    rows[y] += values[y * n + x] / Float(n)
                }
            }
            (side, self.values, self.columns, self.rows) = (n, values, columns, rows)
        }
    }

    /// Where the samples of one comparison fall, and the frames' pixels interpolated along the rows
    /// there: room for the largest level, taken once a check (no allocation while it searches). One
    /// pair's frames: the rows interpolated at the columns of the last few horizontal placements are
    /// kept (``slots``), since a step of the search that moves only the vertical scale or offset lays
    /// the same columns again.
    struct Scratch: ~Copyable {
        static let room = GreyReduction.side
        /// Horizontal placements whose interpolated rows are kept: the search's current one and the two
        /// it tries beside it.
        static let slots = 3
        let columnA, columnB, rowA, rowB: UnsafeMutablePointer<Int>
        let weightXA, weightXB, weightYA, weightYB: UnsafeMutablePointer<Float>
        /// Per slot, every row of a frame interpolated at the samples' columns: `room` x `room` each.
        let alongA, alongB: UnsafeMutablePointer<Float>
        /// Per slot, the horizontal scale and offset it was laid at (NaN: empty), and when it was last used.
        let keys: UnsafeMutablePointer<SIMD2<Double>>
        let used: UnsafeMutablePointer<Int>

        init() {
            func ints(_ count: Int = Self.room) -> UnsafeMutablePointer<Int> { .allocate(capacity: count) }
            func floats(_ count: Int = Self.room) -> UnsafeMutablePointer<Float> { .allocate(capacity: count) }
            (columnA, columnB, rowA, rowB) = (ints(), ints(), ints(), ints())
            (weightXA, weightXB, weightYA, weightYB) = (floats(), floats(), floats(), floats())
            let plane = Self.room * Self.room
            (alongA, alongB) = (floats(Self.slots * plane), floats(Self.slots * plane))
            keys = .allocate(capacity: Self.slots)
            keys.initialize(repeating: SIMD2(repeating: .nan), count: Self.slots)
            used = ints(Self.slots + 1)
            used.initialize(repeating: 0, count: Self.slots + 1)
        }

        deinit {
            for pointer in [columnA, columnB, rowA, rowB, used] { pointer.deallocate() }
            for pointer in [weightXA, weightXB, weightYA, weightYB, alongA, alongB] { pointer.deallocate() }
            keys.deallocate()
        }

        /// The mean absolute difference of A and B over their overlap under `p` (scaleX, scaleY,
        /// offsetX, offsetY), sampled at side x side points (bilinear in each); infinity when the overlap
        /// is under half of either axis. With `cells`, also each cell's mean of a ``CopyCheck/cells``²
        /// grid into it.
        func error(_ a: Level, _ b: Level, _ p: SIMD4<Double>, cells: UnsafeMutablePointer<Float>? = nil) -> Float {
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
            // The rows interpolated at this horizontal placement: kept from an earlier comparison, or
            // made now in the least recently used slot.
            let key = SIMD2(sx, dx)
            used[Self.slots] += 1
            var slot = (0..<Self.slots).first { keys[$0] == key } ?? -1
            let fresh = slot < 0
            if fresh {
                slot = (0..<Self.slots).min { used[$0] < used[$1] }!
                keys[slot] = key
            }
            used[slot] = used[Self.slots]
            let alongA = self.alongA + slot * Self.room * Self.room, alongB = self.alongB + slot * Self.room * Self.room
            for i in 0..<m {
                let t = (Double(i) + 0.5) / Double(m)
                let y = y0 + t * (y1 - y0)
                place(y, rowA, weightYA, i)
                place((y - dy) / sy, rowB, weightYB, i)
                if fresh {
                    let x = x0 + t * (x1 - x0)
                    place(x, columnA, weightXA, i)
                    place((x - dx) / sx, columnB, weightXB, i)
                }
            }
            return a.values.withUnsafeBufferPointer { va in
                b.values.withUnsafeBufferPointer { vb in
                    // Along the rows the samples touch: each row at the samples' columns.
                    func along(_ v: UnsafeBufferPointer<Float>, _ column: UnsafeMutablePointer<Int>, _ weight: UnsafeMutablePointer<Float>,
                               into out: UnsafeMutablePointer<Float>) {
                        for r in 0..<n {
                            let line = v.baseAddress! + r * n, target = out + r * m
                            for i in 0..<m {
                                let x = column[i], left = line[x], right = line[min(x + 1, n - 1)]
                                target[i] = left + (right - left) * weight[i]
                            }
                        }
                    }
                    if fresh {
                        along(va, columnA, weightXA, into: alongA)
                        along(vb, columnB, weightXB, into: alongB)
                    }
                    // Eight columns at a time (three strides a row of 24).
                    var sums = SIMD8<Float>()
                    let perCell = m / CopyCheck.cells, cellWeight = 1 / Float(perCell * perCell)
                    for j in 0..<m {
                        let ya = rowA[j], yb = rowB[j]
                        let topA = alongA + ya * m, bottomA = alongA + min(ya + 1, n - 1) * m
                        let topB = alongB + yb * m, bottomB = alongB + min(yb + 1, n - 1) * m
                        let wa = SIMD8<Float>(repeating: weightYA[j]), wb = SIMD8<Float>(repeating: weightYB[j])
                        for i in stride(from: 0, to: m, by: 8) {
                            @inline(__always) func load(_ pointer: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
                                UnsafeRawPointer(pointer + i).loadUnaligned(as: SIMD8<Float>.self)
                            }
                            let ta = load(topA), tb = load(topB)
                            let sa: SIMD8<Float> = ta + (load(bottomA) - ta) * wa
                            let sb: SIMD8<Float> = tb + (load(bottomB) - tb) * wb
                            // The absolute value by clearing the sign bits (pointwiseMax compiles to a compare a lane).
                            let d = unsafeBitCast(unsafeBitCast(sa - sb, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
                            sums += d
                            if let cells {
                                for k in 0..<8 { cells[(j / perCell) * CopyCheck.cells + (i + k) / perCell] += d[k] * cellWeight }
                            }
                        }
                    }
                    return sums.sum() / Float(m * m)
                }
            }
        }
    }
}
