extension CopyCheck {
    /// A photo's ``GreyReduction`` made ready for checking: its pixels as floats, a half-size copy
    /// (12 x 12, each pixel the mean of four) for the coarse search, and the column and row means of
    /// both. Made once a photo, not once a pair; 3.5 KB.
    public struct Frame: Sendable {
        /// The 24 x 24 pixels.
        let fine: Level
        /// The 12 x 12 pixels.
        let coarse: Level

        public init(_ reduction: GreyReduction) {
            let n = GreyReduction.side, h = n / 2
            let values = reduction.pixels.map(Float.init)
            var half = [Float](repeating: 0, count: h * h)
            for y in 0..<h {
                for x in 0..<h {
                    let top = values[2 * y * n + 2 * x] + values[2 * y * n + 2 * x + 1]
                    let bottom = values[(2 * y + 1) * n + 2 * x] + values[(2 * y + 1) * n + 2 * x + 1]
                    half[y * h + x] = (top + bottom) / 4
                }
            }
            fine = Level(side: n, values: values)
            coarse = Level(side: h, values: half)
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
    /// there: room for the largest level, taken once a check (no allocation while it searches).
    struct Scratch: ~Copyable {
        static let room = GreyReduction.side
        let columnA, columnB, rowA, rowB: UnsafeMutablePointer<Int>
        let weightXA, weightXB, weightYA, weightYB: UnsafeMutablePointer<Float>
        /// Row r of a frame interpolated at the samples' columns: `room` x `room`.
        let alongA, alongB: UnsafeMutablePointer<Float>

        init() {
            func ints() -> UnsafeMutablePointer<Int> { .allocate(capacity: Self.room) }
            func floats(_ count: Int = Self.room) -> UnsafeMutablePointer<Float> { .allocate(capacity: count) }
            (columnA, columnB, rowA, rowB) = (ints(), ints(), ints(), ints())
            (weightXA, weightXB, weightYA, weightYB) = (floats(), floats(), floats(), floats())
            (alongA, alongB) = (floats(Self.room * Self.room), floats(Self.room * Self.room))
        }

        deinit {
            for pointer in [columnA, columnB, rowA, rowB] { pointer.deallocate() }
            for pointer in [weightXA, weightXB, weightYA, weightYB, alongA, alongB] { pointer.deallocate() }
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
            @inline(__always) func place(_ x: Double, _ index: UnsafeMutablePointer<Int>, _ weight: UnsafeMutablePointer<Float>, _ i: Int) {
                let f = min(max(x * Double(n) - 0.5, 0), Double(n - 1))
                index[i] = Int(f)
                weight[i] = Float(f - Double(Int(f)))
            }
            for i in 0..<m {
                let t = (Double(i) + 0.5) / Double(m)
                let x = x0 + t * (x1 - x0), y = y0 + t * (y1 - y0)
                place(x, columnA, weightXA, i)
                place((x - dx) / sx, columnB, weightXB, i)
                place(y, rowA, weightYA, i)
                place((y - dy) / sy, rowB, weightYB, i)
            }
            return a.values.withUnsafeBufferPointer { va in
                b.values.withUnsafeBufferPointer { vb in
                    // Along the rows the samples touch: each row at the samples' columns.
                    func along(_ v: UnsafeBufferPointer<Float>, _ column: UnsafeMutablePointer<Int>, _ weight: UnsafeMutablePointer<Float>,
                               _ row: UnsafeMutablePointer<Int>, into out: UnsafeMutablePointer<Float>) {
                        for r in row[0]...min(row[m - 1] + 1, n - 1) {
                            let line = v.baseAddress! + r * n, target = out + r * m
                            for i in 0..<m {
                                let x = column[i], left = line[x], right = line[min(x + 1, n - 1)]
                                target[i] = left + (right - left) * weight[i]
                            }
                        }
                    }
                    along(va, columnA, weightXA, rowA, into: alongA)
                    along(vb, columnB, weightXB, rowB, into: alongB)
                    var sums = SIMD4<Float>()
                    let perCell = m / CopyCheck.cells, cellWeight = 1 / Float(perCell * perCell)
                    for j in 0..<m {
                        let ya = rowA[j], yb = rowB[j]
                        let topA = alongA + ya * m, bottomA = alongA + min(ya + 1, n - 1) * m
                        let topB = alongB + yb * m, bottomB = alongB + min(yb + 1, n - 1) * m
                        let wa = SIMD4<Float>(repeating: weightYA[j]), wb = SIMD4<Float>(repeating: weightYB[j])
                        for i in stride(from: 0, to: m, by: 4) {
                            @inline(__always) func load(_ pointer: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
                                UnsafeRawPointer(pointer + i).loadUnaligned(as: SIMD4<Float>.self)
                            }
                            let ta = load(topA), tb = load(topB)
                            let sa: SIMD4<Float> = ta + (load(bottomA) - ta) * wa
                            let sb: SIMD4<Float> = tb + (load(bottomB) - tb) * wb
                            let d = pointwiseMax(sa - sb, sb - sa)
                            sums += d
                            if let cells {
                                for k in 0..<4 { cells[(j / perCell) * CopyCheck.cells + (i + k) / perCell] += d[k] * cellWeight }
                            }
                        }
                    }
                    return sums.sum() / Float(m * m)
                }
            }
        }
    }
}
