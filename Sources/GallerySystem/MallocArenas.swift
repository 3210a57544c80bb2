#if canImport(Glibc)
import Glibc
#endif

/// How many malloc arenas the process's threads share. glibc gives each thread that meets a locked arena
/// another one, up to 8 per core, and each arena keeps its own fragments; for long runs over many photos
/// the gallery command holds them to one arena per worker, the dataset command to one
/// (``limit(to:environment:set:)``).
/// Fewer arenas than workers makes the workers wait on each other's allocations: with one arena, two
/// workers on two cores spent 0.08 ms a photo in the kernel on the arena's lock (`futex`), 4% of the job's
/// CPU, and the wait grows with the workers. A limit the user set with glibc's own settings is kept.
public enum MallocArenas {
    /// Holds the process to `count` arenas (at least one), unless `environment` sets glibc's limit
    /// (`MALLOC_ARENA_MAX`, or `glibc.malloc.arena_max` in `GLIBC_TUNABLES`), which glibc has then applied
    /// already. Call it before other threads allocate: a thread keeps the arena it has. `set` is glibc's
    /// `mallopt`. Returns whether it set the limit.
    @discardableResult
    public static func limit(to count: Int, environment: [String: String],
                             set: (Int32, Int32) -> Int32 = glibcMallopt) -> Bool {
        guard !userSetsLimit(environment) else { return false }
        return set(-8 /* M_ARENA_MAX */, Int32(clamping: max(1, count))) == 1
    }

    /// Whether `environment` sets glibc's arena limit itself.
    public static func userSetsLimit(_ environment: [String: String]) -> Bool {
        userSets("arena_max", or: "MALLOC_ARENA_MAX", in: environment)
    }

    /// Whether `environment` sets glibc's malloc setting `name`: as the tunable `glibc.malloc.NAME` in
    /// `GLIBC_TUNABLES`, or as its older variable `variable`.
    static func userSets(_ name: String, or variable: String, in environment: [String: String]) -> Bool {
        if environment[variable] != nil { return true }
        let tunables = environment["GLIBC_TUNABLES"] ?? ""
        return tunables.split(separator: ":").contains { $0.hasPrefix("glibc.malloc.\(name)=") }
    }
}

/// How much freed memory at the top of malloc's heap it keeps for the next buffers before giving it back to
/// the kernel (`M_TRIM_THRESHOLD`). glibc's 128 KiB stays in force once the mmap threshold is fixed (as
/// ``HugePages`` does), so a photo's buffers under that threshold, freed at the top of the heap, were given
/// back after each photo and faulted in again, 4 KiB at a time, for the next.
public enum MallocTrim {
    /// Keeps up to `bytes` free at the top of the heap, unless `environment` sets glibc's own trim threshold
    /// (`MALLOC_TRIM_THRESHOLD_`, or `glibc.malloc.trim_threshold` in `GLIBC_TUNABLES`), which glibc has then
    /// applied already. Returns whether it set it.
    @discardableResult
    public static func keep(upTo bytes: Int, environment: [String: String]) -> Bool {
        guard !userSetsThreshold(environment) else { return false }
        return glibcMallopt(-1 /* M_TRIM_THRESHOLD */, Int32(clamping: bytes)) == 1
    }

    /// Whether `environment` sets glibc's trim threshold itself.
    public static func userSetsThreshold(_ environment: [String: String]) -> Bool {
        MallocArenas.userSets("trim_threshold", or: "MALLOC_TRIM_THRESHOLD_", in: environment)
    }
}
