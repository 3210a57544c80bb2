#if canImport(Glibc)
import Glibc
#endif

enum System {
    /// Cores this process may run on.
    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// For long runs over many photos. Pixel buffers are megabytes and of every size; glibc's default
    /// (a dynamic mmap threshold that climbs to 32 MB) serves them from the heap, whose fragments it
    /// keeps, so peak memory crept up with the number of photos (~200 MB at 1,000). Above 1 MiB,
    /// mmap them: freed buffers go straight back to the kernel (measured: 158 MB at 1,000 photos, at
    /// about 6% of the run's time). Not for `thumbnail`, where the page faults cost ~30%.
    static func returnLargeBuffersToTheKernel() {
        _ = glibcMallopt(-3 /* M_MMAP_THRESHOLD */, 1 << 20)
    }
}

/// glibc's `mallopt(int, int)`; `<malloc.h>` is not part of Swift's Glibc module.
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// Error lines go to stderr unbuffered, one write per line so parallel workers never interleave.
enum StandardError {
    static func line(_ text: String) {
        var bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}
