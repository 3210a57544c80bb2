#if canImport(Glibc)
import Glibc
#endif

/// How many malloc arenas the process's threads share. glibc gives each thread that meets a locked arena
/// another one, up to 8 per core; for long runs over many photos the gallery and dataset commands hold them
/// to one (``shareOne(environment:)``), so the fragments of every thread's buffers are shared. The price is
/// one lock: threads that allocate at once wait on it. On two cores it costs little (at 8 workers, 4 arenas
/// gave 3x fewer voluntary context switches and 4-8% less CPU; at 2 workers, no difference); on many
/// cores it may cost more, so a limit the user set with glibc's own settings is kept.
public enum MallocArenas {
    /// Holds the process to one arena, unless `environment` sets glibc's limit (`MALLOC_ARENA_MAX`, or
    /// `glibc.malloc.arena_max` in `GLIBC_TUNABLES`), which glibc has then applied already. Call it before
    /// other threads allocate: a thread keeps the arena it has. Returns whether it set the limit.
    @discardableResult
    public static func shareOne(environment: [String: String]) -> Bool {
        guard !userSetsLimit(environment) else { return false }
        return glibcMallopt(-8 /* M_ARENA_MAX */, 1) == 1
    }

    /// Whether `environment` sets glibc's arena limit itself.
    public static func userSetsLimit(_ environment: [String: String]) -> Bool {
        if environment["MALLOC_ARENA_MAX"] != nil { return true }
        let tunables = environment["GLIBC_TUNABLES"] ?? ""
        return tunables.split(separator: ":").contains { $0.hasPrefix("glibc.malloc.arena_max=") }
    }
}
