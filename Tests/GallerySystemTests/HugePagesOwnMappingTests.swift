import Glibc
import Testing
@testable import GallerySystem

/// Only a buffer that malloc mapped on its own is advised for huge pages, never a stretch of its heap (a large
/// request that a merged free chunk of the heap served).
@Suite struct HugePagesOwnMappingTests {
    @Test func aMappingOfItsOwnIsToldFromTheHeap() throws {
        // 64 MiB is past glibc's largest mmap threshold; 64 KiB is below its smallest.
        let large = [UInt8](repeating: 1, count: 64 << 20)
        large.withUnsafeBytes { #expect(HugePages.isOwnMapping($0, headerBytes: 32)) }
        let small = [UInt8](repeating: 1, count: 64 << 10)
        small.withUnsafeBytes { #expect(!HugePages.isOwnMapping($0, headerBytes: 32)) }

        // A page laid out as malloc lays out its chunks: the size word 8 bytes in, the buffer 48 bytes in.
        var raw: UnsafeMutableRawPointer?
        try #require(posix_memalign(&raw, 4096, 2 << 20) == 0)
        let page = try #require(raw)
        defer { free(page) }
        let buffer = UnsafeRawBufferPointer(start: page + 48, count: 1 << 20)
        page.storeBytes(of: UInt(2 << 20) | 1, toByteOffset: 8, as: UInt.self)  // a heap chunk: in use, not mapped
        #expect(!HugePages.isOwnMapping(buffer, headerBytes: 32))
        page.storeBytes(of: UInt(2 << 20) | 2, toByteOffset: 8, as: UInt.self)  // mapped, and covering the buffer
        #expect(HugePages.isOwnMapping(buffer, headerBytes: 32))
        page.storeBytes(of: UInt(1 << 20) | 2, toByteOffset: 8, as: UInt.self)  // mapped, but shorter than it
        #expect(!HugePages.isOwnMapping(buffer, headerBytes: 32))
        #expect(!HugePages.isOwnMapping(UnsafeRawBufferPointer(start: page + 64, count: 100), headerBytes: 32))
    }
}
