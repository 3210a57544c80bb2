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
    /// is smaller than the threshold, when that is off, or when the kernel refuses.
    public static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        let minimum = threshold.load(ordering: .relaxed)
        guard minimum > 0, buffer.count >= minimum, let base = buffer.baseAddress else { return }
        let first = Int(bitPattern: base) & ~(smallPage - 1)
        guard let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(start, Int(bitPattern: base) + buffer.count - first, MADV_HUGEPAGE)
    }
}

/// glibc's `mallopt(int, int)`; `<malloc.h>` is not part of Swift's Glibc module.
@_silgen_name("mallopt")
func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
