import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Transparent huge pages for a process's large pixel buffers. A buffer of several megabytes that malloc maps
/// on its own (at or above its mmap threshold) is faulted in 4 KiB at a time when first written, and each
/// fault takes a zeroed page: thousands a photo. Asked for before the first write (`madvise(MADV_HUGEPAGE)`,
/// honoured where the kernel's THP mode is `madvise` or `always`), its whole 2 MiB pages come one fault each,
/// and the memory is the same (the advice covers only pages the buffer fills).
///
/// Off until ``enable(forBuffersOf:)``, which also fixes malloc's mmap threshold at the same size: every advised
/// buffer then has a mapping of its own. (Advising part of malloc's heap would change how later, unrelated
/// allocations there are backed.)
public enum HugePages {
    private static let threshold = Atomic<Int>(0)
    private static let smallPage = 4096

    /// From now on malloc maps every buffer of `bytes` or more on its own (`M_MMAP_THRESHOLD`, fixed: glibc no
    /// longer raises it to the largest buffer freed), and ``advise(_:)`` advises those. 0 turns the advice off
    /// and leaves malloc as it is.
    public static func enable(forBuffersOf bytes: Int) {
        if bytes > 0 { _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, Int32(clamping: bytes)) }
        threshold.store(max(0, bytes), ordering: .relaxed)
    }

    /// Asks for huge pages on `buffer`'s mapping, before it is written: from the 4 KiB page it starts in (the
    /// first page of its mapping, where malloc and the array keep their headers) to its end. The kernel backs
    /// with huge pages the 2 MiB-aligned stretches of that range, 4 KiB pages the rest. Nothing when the buffer
    /// is smaller than the threshold, when that is off, when the kernel refuses, or when the buffer is not a
    /// mapping of its own (``isOwnMapping(_:headerBytes:)``).
    /// `headerBytes`: bytes between malloc's pointer and the buffer (a Swift array's elements: 32).
    public static func advise(_ buffer: UnsafeMutableRawBufferPointer, headerBytes: Int = 32) {
        let minimum = threshold.load(ordering: .relaxed)
        guard minimum > 0, buffer.count >= minimum, let base = buffer.baseAddress,
              isOwnMapping(UnsafeRawBufferPointer(buffer), headerBytes: headerBytes) else { return }
        let first = Int(bitPattern: base) & ~(smallPage - 1)
        guard let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(start, Int(bitPattern: base) + buffer.count - first, MADV_HUGEPAGE)
    }

    /// Whether malloc made `buffer` (`headerBytes` past its pointer) a mapping of its own rather than a
    /// stretch of its heap. A block at or above the mmap threshold usually is, but malloc serves a request
    /// from a free chunk of its heap first when one is large enough (freed neighbours merge), and advising that
    /// would change how the heap's later tenants are backed. glibc maps a block with its 16-byte chunk header
    /// at the start of a page, the header's size word with its IS_MMAPPED bit (2) set: so the buffer starts
    /// `16 + headerBytes` into a page, and the word 8 bytes into that page says so and covers the buffer. A
    /// heap chunk whose pointer falls 16 bytes into a page has its own size word there, without that bit.
    public static func isOwnMapping(_ buffer: UnsafeRawBufferPointer, headerBytes: Int) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        let address = Int(bitPattern: base)
        guard address & (smallPage - 1) == 16 + headerBytes,
              let page = UnsafeRawPointer(bitPattern: address & ~(smallPage - 1)) else { return false }
        let size = page.load(fromByteOffset: 8, as: UInt.self)
        return size & 2 != 0 && Int(bitPattern: size & ~7) >= 16 + headerBytes + buffer.count
    }
}

/// glibc's `mallopt(int, int)`; `<malloc.h>` is not part of Swift's Glibc module.
@_silgen_name("mallopt")
@usableFromInline func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
