// libFuzzer target: WebP decode (libwebp through CCodecs: still images scaled in the codec, an animation's
// first frame through libwebpdemux, the EXIF chunk's orientation) and the scale to a thumbnail.
// Invariants: see fuzzImage in Shared/ImageHarness.swift.
import GalleryImaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: data, count: size), format: .webp)
    return 0
}
