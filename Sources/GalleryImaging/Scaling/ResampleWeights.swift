/// Per-output-pixel filter taps along one axis, computed once per axis and reused by every row
/// or column: output pixel `i` reads `count[i]` consecutive source samples from `first[i]`, with
/// weights `weights[i * stride ..< i * stride + count[i]]` that sum to 1.
///
/// Immutable and shared: ``ResampleWeightsCache`` hands the same taps to every image of the same size.
/// The taps live in memory of their own (freed in `deinit`), so the scaler's loops read them through
/// plain pointers, with no array to retain or check per row.
final class ResampleWeights: @unchecked Sendable {
    let outputSize: Int
    /// Maximum taps of any output pixel; the row length of `weights`.
    let stride: Int
    let first: UnsafePointer<Int>
    let count: UnsafePointer<Int>
    let weights: UnsafePointer<Float>
    /// Rows a streaming user of these taps as the vertical filter must hold at once: output `i` needs
    /// samples `first[i] ..< first[i] + count[i]` while every sample up to the furthest one needed so
    /// far has been made (at least 1).
    let ringRows: Int

    /// Taps for mapping `inputSize` samples onto `outputSize`, where the samples cover
    /// `inputExtent` units of the original axis (the box shrink may leave a partial last sample,
    /// so `inputExtent` can be a little less than `inputSize`). As in Pillow and libvips `reduce`,
    /// the kernel is widened by the scale factor when reducing so every source sample contributes.
    init(inputSize: Int, inputExtent: Double, outputSize: Int, filter: ResampleFilter) {
        precondition(inputSize > 0 && outputSize > 0)
        let scale = inputExtent / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        let stride = Int((support * 2).rounded(.up)) + 2
        var first = [Int](repeating: 0, count: outputSize)
        var count = [Int](repeating: 0, count: outputSize)
        var weights = [Float](repeating: 0, count: outputSize * stride)
        var taps = [Double](repeating: 0, count: stride)
        var walk = LanczosWalk(step: 1 / filterScale)
        for i in 0..<outputSize {
            let center = (Double(i) + 0.5) * scale
            var lo = max(Int((center - support).rounded(.down)), 0)
            var hi = min(Int((center + support).rounded(.up)), inputSize)
            if hi <= lo {
                // Upscaling past the last sample (or a degenerate extent): clamp to the edge sample.
                lo = min(lo, inputSize - 1)
                hi = lo + 1
            }
            var n = 0
            var sum = 0.0
            if filter == .lanczos3 { walk.start(at: (Double(lo) + 0.5 - center) / filterScale) }
            for x in lo..<hi {
                let w: Double
                switch filter {
                case .lanczos3:
                    w = walk.next(at: (Double(x) + 0.5 - center) / filterScale)
                case .area:
                    // Overlap of source sample [x, x+1) with the output footprint, at least one sample wide.
                    let half = max(scale, 1) / 2
                    w = max(0, min(Double(x + 1), center + half) - max(Double(x), center - half))
                }
                taps[n] = w
                sum += w
                n += 1
            }
            // Trim zero taps at both ends so the inner loops do no useless work.
            var start = 0
            while start < n - 1 && taps[start] == 0 { start += 1 }
            var end = n
            while end > start + 1 && taps[end - 1] == 0 { end -= 1 }
            if sum == 0 { sum = 1; taps[start] = 1 }
            first[i] = lo + start
            count[i] = end - start
            for k in start..<end { weights[i * stride + k - start] = Float(taps[k] / sum) }
        }
        self.outputSize = outputSize
        self.stride = stride
        var ring = 1
        var furthest = 0
        for i in 0..<outputSize {
            furthest = max(furthest, first[i] + count[i])
            ring = max(ring, furthest - first[i])
        }
        ringRows = ring
        self.first = UnsafePointer(Self.copy(first))
        self.count = UnsafePointer(Self.copy(count))
        self.weights = UnsafePointer(Self.copy(weights))
    }

    deinit {
        first.deallocate()
        count.deallocate()
        weights.deallocate()
    }

    /// The weights of output `i` (`count[i]` of them).
    @inline(__always)
    func taps(of i: Int) -> UnsafePointer<Float> { weights + i &* stride }

    private static func copy<T>(_ array: [T]) -> UnsafeMutablePointer<T> {
        let memory = UnsafeMutablePointer<T>.allocate(capacity: array.count)
        _ = UnsafeMutableBufferPointer(start: memory, count: array.count).initialize(from: array)
        return memory
    }
}
