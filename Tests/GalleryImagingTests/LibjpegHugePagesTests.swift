import CCodecs
import Foundation
import GallerySystem
import GalleryTestSupport
import Testing
@testable import GalleryImaging

/// libjpeg's own large blocks (a progressive JPEG's whole-image coefficients) come from our `jpeg_get_large`
/// (CCodecs' jpeg_memory.c), which libjpeg calls through its PLT, and are advised for huge pages as our
/// bitmaps are once a process turns that on (``ImageMemory``). In `BitmapHugePagesTests`' serialized suite:
/// both turn the advice on and off for the whole process.
extension BitmapHugePagesTests {
    @Test func libjpegsLargeBlocksComeThroughOurAllocatorAndAreAdvised() throws {
        // libjpeg itself calls ours: a progressive file's coefficient arrays are taken from it.
        let before = fg_jpeg_large_blocks()
        let decoded = try ImageDecoder.decode(fileAt: Corpus.path("libjpeg-turbo/testimgint.jpg"))
        #expect(decoded.bitmap.width == 227 && decoded.bitmap.height == 149)
        #expect(fg_jpeg_large_blocks() > before, "libjpeg took no large block from our jpeg_get_large")

        try #require(FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled"),
                     "this kernel has no transparent huge pages")
        // The C side alone (ImageMemory also turns on HugePages for the whole test process, whose other suites'
        // bitmaps run at the same time): a block at or above its threshold is a mapping of its own.
        defer { fg_jpeg_advise_large_buffers(0) }
        fg_jpeg_advise_large_buffers(4 << 20)
        let large = try #require(jpegGetLarge(nil, 12 << 20))
        defer { jpegFreeLarge(nil, large, 12 << 20) }
        large.initializeMemory(as: UInt8.self, repeating: 1, count: 12 << 20)
        #expect(try Self.flags(at: large).contains("hg"), "a 12 MiB block of libjpeg's was not advised")

        fg_jpeg_advise_large_buffers(0)
        let plain = try #require(jpegGetLarge(nil, 12 << 20))
        defer { jpegFreeLarge(nil, plain, 12 << 20) }
        let flags = try Self.flags(at: plain)
        #expect(!flags.isEmpty && !flags.contains("hg"), "advised while off: \(flags)")
    }
}

/// libjpeg's allocator entry points (jmemsys.h), as the program defines them.
@_silgen_name("jpeg_get_large")
private func jpegGetLarge(_ cinfo: OpaquePointer?, _ size: Int) -> UnsafeMutableRawPointer?
@_silgen_name("jpeg_free_large")
private func jpegFreeLarge(_ cinfo: OpaquePointer?, _ object: UnsafeMutableRawPointer?, _ size: Int)
