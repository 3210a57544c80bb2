// libFuzzer target: JPEG decode (libjpeg-turbo through CCodecs, DCT scaling, DC-only progressive
// path, truncated-data tolerance, EXIF orientation) and the scale to a thumbnail.
// Invariants: see fuzzImage in Shared/ImageHarness.swift.
import GalleryImaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: data, count: size), format: .jpeg)
    return 0
}
