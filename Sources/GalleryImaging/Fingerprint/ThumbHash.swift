import Foundation
import GallerySync

/// A ThumbHash: about 25 bytes that describe an image's colours, layout and aspect well enough to
/// draw a blurred stand-in for it before it loads.
///
/// Written from the format's public description (Evan Wallace, 2023): the image, composited over its
/// own average colour, is split into luminance L = (r+g+b)/3, a yellow-blue channel P = (r+g)/2 - b, a
/// red-green channel Q = r - g and alpha; each keeps a few of its lowest DCT coefficients (L up to 7 per
/// axis, fewer for a narrow axis; P and Q 3; alpha 5), the constant term and the largest magnitude in a
/// header, every other coefficient as one 4-bit step between -max and +max. Header: 24 bits (L constant
/// 6, P 6, Q 6, L scale 5, has-alpha 1), 16 bits (L count along the shorter axis 3, P scale 6, Q scale 6,
/// landscape 1), both little-endian; then an alpha byte when there is alpha; then the 4-bit values,
/// low nibble first, L, P, Q (and alpha) each in rows of rising vertical frequency.
public struct ThumbHash: Sendable, Hashable {
    /// The encoded bytes.
    public var bytes: [UInt8]

    /// Wraps encoded bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Longest edge the encoder works at: enough samples for seven cosines a side, few to sum over.
    static let workingEdge = 32

    /// The ThumbHash of `bitmap` (any pixel format), taken from a copy scaled to at most 32 pixels a side.
    public init(of bitmap: Bitmap) {
        self.init(encoding: Self.working(bitmap))
    }

    /// The hash of `bitmap` as it is, at most 100 pixels a side (the format's limit: more only costs).
    init(encoding bitmap: Bitmap) {
        precondition(bitmap.width <= 100 && bitmap.height <= 100, "ThumbHash encodes at most 100x100 pixels")
        self.init(rgba: Self.rgba(bitmap), width: bitmap.width, height: bitmap.height)
    }

    /// The copy the hash is taken from: at most ``workingEdge`` pixels a side.
    static func working(_ bitmap: Bitmap) -> Bitmap {
        Resampler.default.scale(bitmap, longestEdge: workingEdge)
    }

    /// The bytes in base64, as the format's own tools print a hash.
    public var base64: String { Data(bytes).base64EncodedString() }

    /// The ThumbHash of `width` x `height` straight-alpha RGBA values in 0...1 (four per pixel), of an
    /// image whose true shape is `aspect` (width, height) when the pixels were squeezed into another
    /// (the cosines run over the image whatever its grid: only the term counts follow the shape).
    init(rgba: [Double], width w: Int, height h: Int, aspect: (width: Int, height: Int)? = nil) {
        let shape = aspect ?? (w, h)
        let count = w * h
        var average = (r: 0.0, g: 0.0, b: 0.0), coverage = 0.0
        rgba.withUnsafeBufferPointer { rgba in
            for i in 0..<count {
                let a = rgba[4 * i + 3]
                average.r += a * rgba[4 * i]
                average.g += a * rgba[4 * i + 1]
                average.b += a * rgba[4 * i + 2]
                coverage += a
            }
        }
        if coverage > 0 { average = (average.r / coverage, average.g / coverage, average.b / coverage) }
        let hasAlpha = coverage < Double(count)
        let lLimit = hasAlpha ? 5.0 : 7.0
        let longest = Double(max(shape.width, shape.height))
        let lx = max(1, Int((lLimit * Double(shape.width) / longest).rounded()))
        let ly = max(1, Int((lLimit * Double(shape.height) / longest).rounded()))
        var l = [Double](repeating: 0, count: count), p = l, q = l, alpha = l
        rgba.withUnsafeBufferPointer { rgba in
            l.withUnsafeMutableBufferPointer { l in p.withUnsafeMutableBufferPointer { p in
                q.withUnsafeMutableBufferPointer { q in alpha.withUnsafeMutableBufferPointer { alpha in
                    for i in 0..<count {
                        let a = rgba[4 * i + 3]
                        let r = average.r * (1 - a) + a * rgba[4 * i]
                        let g = average.g * (1 - a) + a * rgba[4 * i + 1]
                        let b = average.b * (1 - a) + a * rgba[4 * i + 2]
                        l[i] = (r + g + b) / 3
                        p[i] = (r + g) / 2 - b
                        q[i] = r - g
                        alpha[i] = a
                    }
                } }
            } }
        }
        let lChannel = Self.encode(l, width: w, height: h, nx: max(3, lx), ny: max(3, ly))
        let pChannel = Self.encode(p, width: w, height: h, nx: 3, ny: 3)
        let qChannel = Self.encode(q, width: w, height: h, nx: 3, ny: 3)
        let landscape = shape.width > shape.height
        func step(_ value: Double, _ levels: Double) -> UInt32 { UInt32(max(0, (levels * value).rounded())) }
        let header24 = step(lChannel.dc, 63) | step(0.5 + 0.5 * pChannel.dc, 63) << 6
            | step(0.5 + 0.5 * qChannel.dc, 63) << 12 | step(lChannel.scale, 31) << 18 | (hasAlpha ? 1 << 23 : 0)
        let header16 = UInt32(landscape ? ly : lx) | step(pChannel.scale, 63) << 3 | step(qChannel.scale, 63) << 9
            | (landscape ? 1 << 15 : 0)
        var out: [UInt8] = [UInt8(header24 & 255), UInt8(header24 >> 8 & 255), UInt8(header24 >> 16),
                            UInt8(header16 & 255), UInt8(header16 >> 8)]
        var terms = lChannel.ac + pChannel.ac + qChannel.ac
        if hasAlpha {
            let aChannel = Self.encode(alpha, width: w, height: h, nx: 5, ny: 5)
            out.append(UInt8(step(aChannel.dc, 15) | step(aChannel.scale, 15) << 4))
            terms += aChannel.ac
        }
        for (index, term) in terms.enumerated() {
            let nibble = UInt8(step(term, 15))
            if index % 2 == 0 { out.append(nibble) } else { out[out.count - 1] |= nibble << 4 }
        }
        bytes = out
    }

    /// One channel's constant term, its other terms mapped to 0...1, and their largest magnitude.
    /// Separable: each row's sums against the horizontal cosines first, then those against the vertical.
    /// The sums of up to eight cosines run side by side, one per lane of a vector (a sum alone waits on
    /// its previous addition at every pixel); each lane adds the same products in the same order as one
    /// sum at a time, so the terms are the same to the bit.
    static func encode(_ channel: [Double], width w: Int, height h: Int, nx: Int, ny: Int)
        -> (dc: Double, ac: [Double], scale: Double) {
        let fx = laneCosines(count: nx, size: w), fy = cosines(count: ny, size: h)
        // rows[y], lane cx: row y's sum against horizontal cosine cx.
        var rows = [SIMD8<Double>](repeating: .zero, count: h)
        channel.withUnsafeBufferPointer { channel in
            fx.withUnsafeBufferPointer { fx in
                rows.withUnsafeMutableBufferPointer { rows in
                    for y in 0..<h {
                        let line = channel.baseAddress! + y * w
                        var sums = SIMD8<Double>.zero, x = 0
                        while x < w { sums += SIMD8(repeating: line[x]) * fx[x]; x += 1 }
                        rows[y] = sums
                    }
                }
            }
        }
        // columns[cy], lane cx: the sum of column cx of `rows` against vertical cosine cy.
        var columns = [SIMD8<Double>](repeating: .zero, count: ny)
        rows.withUnsafeBufferPointer { rows in
            fy.withUnsafeBufferPointer { fy in
                for cy in 0..<ny {
                    let cosine = fy.baseAddress! + cy * h
                    var sums = SIMD8<Double>.zero, y = 0
                    while y < h { sums += rows[y] * SIMD8(repeating: cosine[y]); y += 1 }
                    columns[cy] = sums
                }
            }
        }
        return terms(nx: nx, ny: ny, pixels: w * h) { cx, cy in columns[cy][cx] }
    }

    /// A channel's terms from its sums (`sum(cx, cy)`: the channel against horizontal cosine cx and vertical
    /// cosine cy): the constant term, the others in the format's order (rows of rising vertical frequency,
    /// each as long as the triangle allows) mapped to 0...1, and their largest magnitude.
    static func terms(nx: Int, ny: Int, pixels: Int, _ sum: (Int, Int) -> Double) -> (dc: Double, ac: [Double], scale: Double) {
        var dc = 0.0, ac: [Double] = [], scale = 0.0
        ac.reserveCapacity(nx * ny)
        for cy in 0..<ny {
            var cx = 0
            while cx * ny < nx * (ny - cy) {
                let term = sum(cx, cy) / Double(pixels)
                if cx == 0 && cy == 0 { dc = term } else {
                    ac.append(term)
                    scale = max(scale, abs(term))
                }
                cx += 1
            }
        }
        if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
        return (dc, ac, scale)
    }

    /// `cosines(count:size:)` a position at a time (``CosineLanes``): element `i`, lane `k`, is
    /// `cos(π / size · k · (i + 0.5))`. At most 8 cosines.
    static func laneCosines(count: Int, size: Int) -> [SIMD8<Double>] {
        let key = size << 8 | count
        if let table = laneTables.withLock({ $0[key] }) { return table }
        let table = CosineLanes.lanes(cosines(count: count, size: size), count: count, size: size)
        laneTables.withLock { $0[key] = table }
        return table
    }

    /// By `size << 8 | count`, as ``cosineTables``.
    private static let laneTables = Locked<[Int: [SIMD8<Double>]]>([:])

    /// `cos(π / size · k · (i + 0.5))` for `k` in `0..<count` and `i` in `0..<size`, row `k` from `k · size`: the
    /// same values for every photo of one shape, so computed once per shape (most photos share a few).
    static func cosines(count: Int, size: Int) -> [Double] {
        let key = size << 8 | count
        if let table = cosineTables.withLock({ $0[key] }) { return table }
        let table = (0..<count).flatMap { k in (0..<size).map { cos(Double.pi / Double(size) * Double(k) * (Double($0) + 0.5)) } }
        cosineTables.withLock { $0[key] = table }
        return table
    }

    /// By `size << 8 | count` (sizes up to 100, counts up to 7: a few hundred tables at most).
    private static let cosineTables = Locked<[Int: [Double]]>([:])

    /// `Double(v) / 255` for every byte `v`: a division a channel cost more than the rest of the conversion.
    private static let unit: [Double] = (0...255).map { Double($0) / 255 }

    /// Straight RGBA in 0...1 from any 8-bit bitmap.
    static func rgba(_ bitmap: Bitmap) -> [Double] {
        let channels = bitmap.format.channels
        let (width, height, stride) = (bitmap.width, bitmap.height, bitmap.bytesPerRow)
        let (green, blue) = channels < 3 ? (0, 0) : (1, 2)
        let alpha = bitmap.format.hasAlpha ? channels - 1 : -1
        var out = [Double](repeating: 1, count: width * height * 4)
        Self.unit.withUnsafeBufferPointer { unit in bitmap.withUnsafeBytes { source in
            out.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    var p = y * stride, o = 4 * y * width
                    for _ in 0..<width {
                        out[o] = unit[Int(source[p])]
                        out[o + 1] = unit[Int(source[p + green])]
                        out[o + 2] = unit[Int(source[p + blue])]
                        if alpha >= 0 { out[o + 3] = unit[Int(source[p + alpha])] }
                        p += channels
                        o += 4
                    }
                }
            }
        } }
        return out
    }
}
