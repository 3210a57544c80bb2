import Testing
@testable import GallerySystem

/// The arena limit is ours to set only where the user did not set glibc's own.
@Suite struct MallocArenasTests {
    @Test func aLimitTheUserSetIsKept() {
        #expect(!MallocArenas.userSetsLimit([:]))
        #expect(!MallocArenas.userSetsLimit(["GLIBC_TUNABLES": "glibc.malloc.tcache_count=16"]))
        #expect(MallocArenas.userSetsLimit(["MALLOC_ARENA_MAX": "4"]))
        #expect(MallocArenas.userSetsLimit(["GLIBC_TUNABLES": "glibc.malloc.arena_max=4"]))
        #expect(MallocArenas.userSetsLimit(["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=1:glibc.malloc.arena_max=2"]))
        #expect(!MallocArenas.userSetsLimit(["GLIBC_TUNABLES": "glibc.malloc.arena_test=2"]))
    }

    /// One arena per worker, at least one; nothing asked of glibc where the user set the limit.
    @Test func oneArenaForEachWorker() {
        var asked: [(Int32, Int32)] = []
        let record = { (parameter: Int32, value: Int32) -> Int32 in asked.append((parameter, value)); return 1 }
        #expect(MallocArenas.limit(to: 16, environment: [:], set: record))
        #expect(MallocArenas.limit(to: 0, environment: ["GLIBC_TUNABLES": "glibc.malloc.tcache_count=16"], set: record))
        #expect(!MallocArenas.limit(to: 4, environment: ["MALLOC_ARENA_MAX": "2"], set: record))
        #expect(!MallocArenas.limit(to: 4, environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=2"], set: record))
        #expect(asked.map(\.0) == [-8, -8])  // M_ARENA_MAX
        #expect(asked.map(\.1) == [16, 1])
        // glibc takes it (mallopt answers 1).
        #expect(MallocArenas.limit(to: 64, environment: [:]))
    }
}

/// The trim threshold likewise: ours only where the user set no trim threshold of glibc's.
@Suite struct MallocTrimTests {
    @Test func aThresholdTheUserSetIsKept() {
        #expect(!MallocTrim.userSetsThreshold([:]))
        #expect(!MallocTrim.userSetsThreshold(["MALLOC_ARENA_MAX": "1", "GLIBC_TUNABLES": "glibc.malloc.arena_max=1"]))
        #expect(MallocTrim.userSetsThreshold(["MALLOC_TRIM_THRESHOLD_": "65536"]))
        #expect(MallocTrim.userSetsThreshold(["GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=0"]))
        #expect(!MallocTrim.userSetsThreshold(["GLIBC_TUNABLES": "glibc.malloc.top_pad=0"]))
        #expect(!MallocTrim.keep(upTo: 8 << 20, environment: ["MALLOC_TRIM_THRESHOLD_": "65536"]))
        // glibc takes it (mallopt answers 1); with this process's own environment unless it sets one.
        #expect(MallocTrim.keep(upTo: 8 << 20, environment: [:]))
    }
}
