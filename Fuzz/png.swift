// libFuzzer target: PNG decode (libpng through CCodecs, 8-bit expansion of every colour type,
// Adam7 early-pass subsampling, eXIf orientation) and the scale to a thumbnail.
// Invariants: see fuzzImage in Shared/ImageHarness.swift.
import GalleryImaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: data, count: size), format: .png)
    return 0
}
