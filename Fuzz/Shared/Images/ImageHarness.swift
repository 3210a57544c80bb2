import GalleryImaging

/// Guards low enough that no header can make one execution slow or large: 256 kpx (512x512), far below
/// the product's defaults (100 Mpx), which the product's own tests cover. (At 1.5 Mpx the JPEG target
/// ran at ~250 executions/s, 57% of it in the resampler's coverage-traced inner loops; the code paths
/// do not depend on the size beyond the guards, which are tested separately.)
let fuzzMaxPixels = 262_144
let fuzzMaxDecodedBytes = 8 << 20

/// Decodes `data` (which must start with `format`'s signature; other inputs are left to the other
/// image target) at a target picked from the input, then scales it to a thumbnail, and checks what
/// the product promises: either a typed ``DecodeError`` or a bitmap whose geometry is consistent,
/// that respects the target and the guards, and that probe agrees with.
func fuzzImage(_ data: UnsafeRawBufferPointer, format: ImageFormat) {
    guard ImageFormat.sniff(data) == format else { return }
    let seed = fuzzSeed(data)
    let targets: [DecodeTarget] = [.longestEdge(1), .longestEdge(16), .longestEdge(64), .longestEdge(256),
                                   .covering(width: 40, height: 30), .fullSize]
    var options = DecodeOptions(target: targets[Int(seed % UInt64(targets.count))],
                                maxPixels: fuzzMaxPixels, maxScans: 200, maxDecodedBytes: fuzzMaxDecodedBytes,
                                maxCodecMemory: 64 << 20)
    options.allowTruncated = (seed >> 8) & 1 == 1
    options.useFastPaths = (seed >> 9) & 3 != 0

    let decoded: DecodedImage
    do {
        decoded = try ImageDecoder.decode(data, name: "fuzz", options: options)
    } catch {
        // Typed by the signature; a guard refusal must name a size over the guard or no size at all.
        if case .tooLarge(_, let w, let h, _) = error { require(w >= 0 && h >= 0, "negative size in \(error)") }
        return
    }
    let bitmap = decoded.bitmap
    let (sw, sh) = (decoded.sourceWidth, decoded.sourceHeight)
    require(decoded.format == format, "decoded as \(decoded.format), sniffed \(format)")
    require(sw > 0 && sh > 0, "source size \(sw)x\(sh)")
    require(sw * sh <= fuzzMaxPixels, "source \(sw)x\(sh) passed the \(fuzzMaxPixels)-pixel guard")
    require(bitmap.width > 0 && bitmap.height > 0, "bitmap \(bitmap.width)x\(bitmap.height)")
    require(bitmap.bytesPerRow == bitmap.width * bitmap.format.channels, "bytesPerRow \(bitmap.bytesPerRow)")
    require(bitmap.pixels.count == bitmap.width * bitmap.height * bitmap.format.channels,
            "\(bitmap.pixels.count) bytes for \(bitmap.width)x\(bitmap.height)x\(bitmap.format.channels)")
    require(bitmap.pixels.count <= fuzzMaxDecodedBytes, "\(bitmap.pixels.count) bytes passed the decoded-bytes guard")
    require(bitmap.width <= sw && bitmap.height <= sh, "bitmap \(bitmap.width)x\(bitmap.height) larger than source \(sw)x\(sh)")
    let minimum = options.target.minimumSize(sourceWidth: sw, sourceHeight: sh)
    require(bitmap.width >= minimum.width && bitmap.height >= minimum.height,
            "bitmap \(bitmap.width)x\(bitmap.height) below the target's \(minimum) for \(sw)x\(sh) (\(options.target))")
    if case .fullSize = options.target {
        require(bitmap.width == sw && bitmap.height == sh, "full-size decode gave \(bitmap.width)x\(bitmap.height) of \(sw)x\(sh)")
    }

    // The header facts must agree with the decode.
    if let info = try? ImageDecoder.probe(Array(data), name: "fuzz", options: options) {
        require(info.width == sw && info.height == sh, "probe \(info.width)x\(info.height), decode \(sw)x\(sh)")
        require(info.pixelFormat == bitmap.format, "probe \(info.pixelFormat), decode \(bitmap.format)")
        require(info.orientation == decoded.orientation, "probe \(info.orientation), decode \(decoded.orientation)")
    } else {
        require(false, "decode succeeded but probe failed")
    }

    // Scale to the thumbnail the pipeline would make and check its geometry.
    let edge: Int
    if case .longestEdge(let e) = options.target { edge = e } else { edge = 48 }
    let thumbnail = Thumbnailer(longestEdge: edge).render(decoded)
    let size = targetSize(forSourceWidth: sw, height: sh, longestEdge: edge)
    let (tw, th) = decoded.orientation.swapsDimensions ? (size.height, size.width) : (size.width, size.height)
    require(thumbnail.width == tw && thumbnail.height == th,
            "thumbnail \(thumbnail.width)x\(thumbnail.height), expected \(tw)x\(th) (\(decoded.orientation))")
    require(thumbnail.format == bitmap.format, "thumbnail changed the pixel format")
    require(thumbnail.pixels.count == thumbnail.width * thumbnail.height * thumbnail.format.channels,
            "thumbnail holds \(thumbnail.pixels.count) bytes")
}
