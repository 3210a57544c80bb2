import Foundation
import GallerySystem
import Testing
@testable import GalleryImaging

/// A large bitmap's pixels are advised for transparent huge pages before they are written, once a process turns
/// that on with malloc's mmap threshold (`fetch-gallery`'s gallery and dataset commands): the kernel then faults
/// them in 2 MiB at a time. What the advice leaves on the mapping (`hg` in its `VmFlags`) is read back from
/// /proc/self/smaps; the pixels themselves must be what the fill wrote.
@Suite(.serialized) struct BitmapHugePagesTests {
    /// The `VmFlags` of the mapping holding `address`, from /proc/self/smaps.
    static func flags(at address: UnsafeRawPointer) throws -> [String] {
        // procfs files report no size, so they are read to their end rather than by their length.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let target = UInt(bitPattern: address)
        var inside = false
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= target && target < bounds[1]
            } else if inside, fields.first == "VmFlags:" {
                return fields.dropFirst().map(String.init)
            }
        }
        return []
    }

    /// A bitmap of `width` x 1024 RGB pixels, its bytes a pattern, and the flags of the mapping its pixels are in.
    static func bitmap(width: Int) throws -> (Bitmap, [String]) {
        var flags: [String] = []
        let bitmap = try Bitmap(width: width, height: 1024, format: .rgb8) { buffer in
            for i in 0..<buffer.count { buffer[i] = UInt8(truncatingIfNeeded: i &* 7) }
            flags = try Self.flags(at: buffer.baseAddress!)
        }
        return (bitmap, flags)
    }

    @Test func aLargeBitmapIsAdvisedOnceTurnedOnAndASmallOneNever() throws {
        try #require(FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled"),
                     "this kernel has no transparent huge pages")
        defer { HugePages.enable(forBuffersOf: 0) }
        HugePages.enable(forBuffersOf: 0)
        // 48 MiB: larger than any free chunk this test process's heap is likely to hold (malloc serves a request
        // from one of those first, and HugePages leaves such a stretch of the heap unadvised).
        let (off, offFlags) = try Self.bitmap(width: 16384)
        #expect(!offFlags.isEmpty && !offFlags.contains("hg"), "advised while off: \(offFlags)")

        HugePages.enable(forBuffersOf: 4 << 20)
        let (large, largeFlags) = try Self.bitmap(width: 16384)
        #expect(largeFlags.contains("hg"), "a 48 MiB bitmap was not advised: \(largeFlags)")
        let (small, smallFlags) = try Self.bitmap(width: 256)  // 768 KiB, in malloc's heap
        #expect(!smallFlags.isEmpty && !smallFlags.contains("hg"), "a 768 KiB bitmap was advised: \(smallFlags)")

        let zeroed = Bitmap(width: 4096, height: 1024, format: .rgb8)
        #expect(zeroed.pixels.allSatisfy { $0 == 0 })
        #expect(large.pixels == off.pixels && large.pixels.count == 48 << 20)
        #expect(small.pixels.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset &* 7) })
    }
}
