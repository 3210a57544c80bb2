// libFuzzer target: PNG decode (libpng through CCodecs, 8-bit expansion of every colour type,
// Adam7 de-interlacing and early-pass subsampling, eXIf orientation) and the scale to a thumbnail.
// Invariants: see fuzzImage in Shared/ImageHarness.swift; and the whole-stream path (libdeflate, our
// own unfiltering and expansion) gives libpng's rows byte for byte, or the same error.
@testable import GalleryImaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    fuzzImage(bytes, format: .png)
    guard ImageFormat.sniff(bytes) == .png else { return 0 }
    let seed = fuzzSeed(bytes)
    let targets: [DecodeTarget] = [.fullSize, .longestEdge(16), .longestEdge(64), .covering(width: 40, height: 30)]
    var options = DecodeOptions(target: targets[Int((seed >> 16) % UInt64(targets.count))],
                                maxPixels: fuzzMaxPixels, maxDecodedBytes: fuzzMaxDecodedBytes)
    // One input in four over a small memory bound: an Adam7 image then takes the early passes (or
    // the full decode), and the whole stream declines, as a large image's would.
    if (seed >> 24) % 4 == 0 { options.maxCodecMemory = 4096 }
    let rows = Result { () throws(DecodeError) in
        try PNGDecoder.decode(bytes, name: "fuzz", options: options, inflation: .libpngRows)
    }
    let whole = Result { () throws(DecodeError) in
        try PNGDecoder.decode(bytes, name: "fuzz", options: options, inflation: .wholeStreamWhenItFits)
    }
    switch (rows, whole) {
    case (.success(let a), .success(let b)):
        require(!a.wholeStream, "libpngRows went through the whole stream")
        require(a.image.bitmap.format == b.image.bitmap.format && a.image.bitmap.width == b.image.bitmap.width
                && a.image.bitmap.height == b.image.bitmap.height, "the two paths' geometry differs")
        require(a.image.bitmap.pixels == b.image.bitmap.pixels,
                "the whole-stream pixels differ from libpng's (\(options.target), \(a.image.bitmap.format))")
    case (.failure(let a), .failure(let b)):
        require("\(a)" == "\(b)", "the two paths fail differently: \(a) / \(b)")
    default:
        require(false, "one path decodes and the other fails: libpng's rows \(rows), whole stream \(whole)")
    }
    return 0
}
