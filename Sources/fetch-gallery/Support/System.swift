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

/// Stderr unbuffered (progress must appear as it happens), one write(2) per call so lines from
/// parallel workers never interleave.
enum StandardError {
    static func write(_ text: String) { writeAll(2, text) }
    static func line(_ text: String) { writeAll(2, text + "\n") }
}

/// Stdout lines for scripts to read (serve-demo's base URL).
enum StandardOutput {
    static func line(_ text: String) { writeAll(1, text + "\n") }
}

private func writeAll(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { raw in
        var done = 0
        while done < raw.count {
            let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
    }
}
