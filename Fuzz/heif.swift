// libFuzzer target: HEIC and AVIF decode (libheif through CHeif: the container's boxes, the thumbnail
// item fast path, irot/imir applied by libheif, 10/12-bit rounding, the colr box) and the scale to a
// thumbnail. Invariants: see fuzzImage in Shared/ImageHarness.swift.
import GalleryImaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if let format = ImageFormat.sniff(bytes), format == .heic || format == .avif { fuzzImage(bytes, format: format) }
    return 0
}
