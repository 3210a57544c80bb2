#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GalleryKit
import GallerySystem

enum System {
    /// Cores this process may run on.
    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// For long runs over many photos, with `arenas` malloc arenas (one per worker, or one). Pixel buffers are
    /// megabytes and of every size; with glibc's default of up to 8 malloc arenas per core, each thread's
    /// arena keeps its own fragments, so peak memory crept up with the number of photos (~200 MB at 1,000).
    /// One arena per worker keeps the fragments in few arenas, and spares the workers a wait on one arena's
    /// lock (``MallocArenas``): at two workers on two cores, 2-3% less CPU than one arena for all the threads,
    /// and the PNG-heavy job's peak the same in the median (below); a user's own arena limit is kept. The earlier fix, an mmap
    /// threshold of 1 MiB, kept memory as low but paid a page fault per 4 KB of every pixel buffer: about
    /// twice the system time (8 s instead of 3-4 s over the run), time the decoders could use. Call it
    /// before any other thread has allocated: a thread that already has an arena keeps it. Large buffers
    /// bypass the arenas (below).
    static func tuneMalloc(arenas: Int) {
        MallocArenas.limit(to: arenas, environment: ProcessInfo.processInfo.environment)
        // Buffers of 4 MiB and more (the pixels of photos over a megapixel or so) are mapped on their own
        // and given back whole when freed. glibc's default raises that threshold to the largest buffer
        // freed so far (up to 32 MiB), after which every large bitmap came from an arena and its
        // freed fragments stayed resident: 113-122 MB of the arena at the peak of a PNG-heavy job of
        // 100 photos, 13 MB with this. Small photos' buffers (under 1 MB) stay in the arena, page faults
        // and all as before (the 1 MiB threshold above paid them for every buffer).
        // Those mapped bitmaps (decoded and resized photos) are faulted in by 2 MiB pages instead of 4 KiB
        // ones where the kernel allows (HugePages): on the demo's 242 photos with display pictures, 0.55-0.60
        // million page faults instead of 1.19 million, a second less system time.
        // libjpeg's own large blocks (a progressive JPEG's coefficients) are advised the same way (ImageMemory):
        // 0.35-0.38 million faults instead of 0.56 on the same job, system time 1.1-1.3 s instead of 1.6-1.7.
        ImageMemory.adviseHugePages(forBuffersOf: 4 << 20)
        // The buffers under that threshold come from the heap. Freed at its top, glibc gave back all but 128 KiB
        // after every photo, and the next photo faulted them in again. Keeping 8 MiB: on the same job 0.30
        // million faults instead of 0.36, system time 1.16-1.25 s instead of 1.45-1.69, the peak the same.
        // (64 MiB took the PNG-heavy set's peak to 201 MB.) Each arena keeps its own, so the 8 MiB are shared
        // out among the arenas, at least 1 MiB each: 8 MiB in each of two arenas took that peak to 179-223 MB
        // over 6 rounds; 4 MiB each, 173-214 over 14 (median 184.5; one arena with 8 MiB: 165-199, 186.5).
        MallocTrim.keep(upTo: max(1 << 20, (8 << 20) / max(1, arenas)), environment: ProcessInfo.processInfo.environment)
    }
}

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
    // Nothing to tell anyone about a terminal or pipe that refuses the text.
    try? Syscall.writeAll(fd, Array(text.utf8), path: fd == 2 ? "standard error" : "standard output")
}
