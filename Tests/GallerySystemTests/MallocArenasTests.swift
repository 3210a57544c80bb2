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
        // Set by the user: left alone, and nothing is changed.
        #expect(!MallocArenas.shareOne(environment: ["MALLOC_ARENA_MAX": "4"]))
    }
}
