// libFuzzer target: GIF decode (giflib through CCodecs: the first frame composited on its canvas, interlace,
// transparency, local tables) and the scale to a thumbnail.
// Invariants: see fuzzImage in Shared/ImageHarness.swift.
import GalleryImaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzImage(UnsafeRawBufferPointer(start: data, count: size), format: .gif)
    return 0
}
