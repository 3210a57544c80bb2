
/// The grey reductions of some of the grouping's photos, by a number in ascending order (a photo's
/// ordinal, or its place among the grouped photos): flat, 580 bytes a photo (its 576 pixels and its
/// number), so that verifying the candidate pairs holds only the photos in a pair.
struct ReductionTable {
    private var numbers: [UInt32] = []
    private var pixels: [UInt8] = []

    /// Room for `capacity` reductions, and no more held.
    init(capacity: Int = 0) {
        numbers.reserveCapacity(capacity)
        pixels.reserveCapacity(capacity * GreyReduction.side * GreyReduction.side)
    }

    /// Adds the reduction of photo `number`, above every number added before.
    mutating func append(_ number: Int, _ reduction: GreyReduction) {
        precondition(numbers.last.map { Int($0) < number } ?? true, "numbers ascend")
        numbers.append(UInt32(number))
        pixels += reduction.pixels
    }

    /// Photo `number`'s reduction, if it was added.
    subscript(number: Int) -> GreyReduction? {
        var (low, high) = (0, numbers.count)
        while low < high {
            let middle = (low + high) / 2
            if Int(numbers[middle]) < number { low = middle + 1 } else { high = middle }
        }
        guard low < numbers.count, Int(numbers[low]) == number else { return nil }
        let size = GreyReduction.side * GreyReduction.side
        return GreyReduction(pixels: Array(pixels[low * size..<(low + 1) * size]))
    }

    /// Reductions held.
    var count: Int { numbers.count }

    /// Bytes held (capacities).
    var byteCount: Int { numbers.capacity * 4 + pixels.capacity }
}
