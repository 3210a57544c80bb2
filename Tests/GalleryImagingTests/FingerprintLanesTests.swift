import Foundation
@testable import GalleryImaging
import GallerySync
import Testing

/// The hashes' cosine sums run side by side in the lanes of a vector. Each lane must add the same products
/// in the same order as the sums did one at a time: the hashes recorded by earlier runs (journals, pages'
/// placeholders) stay the same to the bit. Checked here against those one-at-a-time sums, kept as they were.
@Suite struct FingerprintLanesTests {
    /// The ThumbHash channel transform one sum at a time: rows against horizontal cosines, then columns.
    static func scalarEncode(_ channel: [Double], width w: Int, height h: Int, nx: Int, ny: Int)
        -> (dc: Double, ac: [Double], scale: Double) {
        let fx = ThumbHash.cosines(count: nx, size: w), fy = ThumbHash.cosines(count: ny, size: h)
        var rows = [Double](repeating: 0, count: nx * h)
        for y in 0..<h {
            for cx in 0..<nx {
                var sum = 0.0
                for x in 0..<w { sum += channel[y * w + x] * fx[cx * w + x] }
                rows[cx * h + y] = sum
            }
        }
        // The terms' order and scaling are the encoder's own (``ThumbHash/terms``): the sums are what is checked.
        return ThumbHash.terms(nx: nx, ny: ny, pixels: w * h) { cx, cy in
            var sum = 0.0
            for y in 0..<h { sum += rows[cx * h + y] * fy[cy * h + y] }
            return sum
        }
    }

    /// The pHash's coefficients one sum at a time.
    static func scalarCoefficients(_ small: Bitmap) -> [Double] {
        let n = PerceptualHash.side, k = PerceptualHash.kept
        let cosine = { (f: Int, x: Int) in cos(Double.pi * Double(f) * Double(2 * x + 1) / Double(2 * n)) }
        var rows = [Double](repeating: 0, count: n * k)
        for y in 0..<n {
            for v in 0..<k {
                var sum = 0.0
                for x in 0..<n { sum += Double(small.pixels[y * small.bytesPerRow + x]) * cosine(v, x) }
                rows[y * k + v] = sum
            }
        }
        var coefficients = [Double](repeating: 0, count: k * k)
        for u in 0..<k {
            for v in 0..<k {
                var sum = 0.0
                for y in 0..<n { sum += rows[y * k + v] * cosine(u, y) }
                coefficients[u * k + v] = sum
            }
        }
        return coefficients
    }

    @Test("ThumbHash channel terms are the one-at-a-time sums to the bit, at every shape and term count")
    func thumbHashTermsMatchOneAtATime() {
        var random = SplitMix64(seed: 91)
        var compared = 0
        for (w, h) in [(32, 32), (32, 21), (17, 32), (1, 32), (32, 1), (100, 7), (5, 5)] {
            let channel = (0..<w * h).map { _ in Double(random.next() % 1_000_001) / 1_000_000 - 0.5 }
            for (nx, ny) in [(7, 7), (7, 3), (3, 7), (3, 3), (5, 5), (1, 1), (8, 2)] {
                let lanes = ThumbHash.encode(channel, width: w, height: h, nx: nx, ny: ny)
                let scalar = Self.scalarEncode(channel, width: w, height: h, nx: nx, ny: ny)
                #expect(lanes.dc.bitPattern == scalar.dc.bitPattern, "\(w)x\(h) \(nx)x\(ny): dc")
                #expect(lanes.scale.bitPattern == scalar.scale.bitPattern, "\(w)x\(h) \(nx)x\(ny): scale")
                #expect(lanes.ac.map(\.bitPattern) == scalar.ac.map(\.bitPattern), "\(w)x\(h) \(nx)x\(ny): ac")
                compared += 1
            }
        }
        #expect(compared == 49)
    }

    @Test("pHash coefficients are the one-at-a-time sums to the bit on random and structured grey frames")
    func perceptualHashMatchesOneAtATime() {
        var random = SplitMix64(seed: 17)
        let n = PerceptualHash.side
        var frames: [Bitmap] = (0..<300).map { _ in
            Bitmap(width: n, height: n, format: .gray8, pixels: (0..<n * n).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
        // Smooth frames (photographs are mostly low frequencies): coefficients near the median.
        frames += (0..<100).map { i in
            Bitmap(width: n, height: n, format: .gray8, pixels: (0..<n * n).map { p in
                UInt8(truncatingIfNeeded: (p % n) * (i % 7 + 1) + (p / n) * (i % 5) + Int(random.next() % 3))
            })
        }
        var differing = 0
        for frame in frames {
            let lanes: [UInt64] = PerceptualHash.coefficients(frame).map { $0.bitPattern }
            let scalar: [UInt64] = Self.scalarCoefficients(frame).map { $0.bitPattern }
            if lanes != scalar { differing += 1 }
        }
        #expect(differing == 0, "\(differing) of \(frames.count) frames hash differently")
    }

    /// ThumbHash's decode as it was, every cosine computed at every pixel: the placeholders pages show.
    static func directDecode(_ hash: ThumbHash, longestEdge: Int) throws -> [UInt8] {
        let header = try ThumbHash.Header(hash.bytes)
        let ratio = Double(header.lx) / Double(header.ly)
        let w = ratio > 1 ? longestEdge : max(1, Int((Double(longestEdge) * ratio).rounded()))
        let h = ratio > 1 ? max(1, Int((Double(longestEdge) / ratio).rounded())) : longestEdge
        var reader = ThumbHash.NibbleReader(bytes: hash.bytes, start: header.hasAlpha ? 6 : 5)
        let l = try reader.terms(nx: header.lx, ny: header.ly, scale: header.lScale)
        let p = try reader.terms(nx: 3, ny: 3, scale: header.pScale * 1.25)
        let q = try reader.terms(nx: 3, ny: 3, scale: header.qScale * 1.25)
        let a = header.hasAlpha ? try reader.terms(nx: 5, ny: 5, scale: header.aScale) : []
        let span = max(header.lx, header.ly, header.hasAlpha ? 5 : 3)
        // The terms' sum at a pixel is the decoder's own (unchanged): the cosines fed to it are what is checked.
        let sum = { (terms: [Double], nx: Int, ny: Int, fx: [Double], fy: [Double]) in ThumbHash.sum(terms, nx: nx, ny: ny, fx, fy) }
        var out = [UInt8](repeating: 0, count: 4 * w * h)
        var fx = [Double](repeating: 0, count: span), fy = fx
        for y in 0..<h {
            for c in 0..<span { fy[c] = cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(c)) }
            for x in 0..<w {
                for c in 0..<span { fx[c] = cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(c)) }
                let lum = header.lDC + sum(l, header.lx, header.ly, fx, fy)
                let pv = header.pDC + sum(p, 3, 3, fx, fy)
                let qv = header.qDC + sum(q, 3, 3, fx, fy)
                let av = header.hasAlpha ? header.aDC + sum(a, 5, 5, fx, fy) : 1
                let b = lum - 2.0 / 3.0 * pv
                let r = (3 * lum - b + qv) / 2
                let g = r - qv
                for (i, v) in [r, g, b, av].enumerated() { out[4 * (y * w + x) + i] = UInt8(max(0, min(1, v)) * 255 + 0.5) }
            }
        }
        return out
    }

    @Test("ThumbHash's decode is the per-pixel formula to the byte, opaque and with alpha, at every shape")
    func thumbHashDecodeMatchesThePerPixelFormula() throws {
        var random = SplitMix64(seed: 5)
        var compared = 0
        for (w, h) in [(32, 32), (32, 20), (9, 32), (32, 3), (2, 32), (24, 24)] {
            for alpha in [false, true] {
                for _ in 0..<6 {
                    let channels = alpha ? 4 : 3
                    // Smooth gradients with noise, and for alpha a transparent corner: terms of every size.
                    let (gx, gy) = (Int(random.next() % 9), Int(random.next() % 9))
                    let pixels = (0..<w * h * channels).map { i -> UInt8 in
                        let p = i / channels, x = p % w, y = p / w, c = i % channels
                        if c == 3 { return x + y < (w + h) / 4 ? 0 : 255 }
                        return UInt8(truncatingIfNeeded: x * gx * (c + 1) + y * gy + Int(random.next() % 24))
                    }
                    let bitmap = Bitmap(width: w, height: h, format: alpha ? .rgba8 : .rgb8, pixels: pixels)
                    let hash = ImageFingerprint(of: bitmap).thumbhash
                    for edge in [8, 32] {
                        let decoded = try hash.decoded(longestEdge: edge)
                        #expect(decoded.pixels == (try Self.directDecode(hash, longestEdge: edge)), "\(w)x\(h) alpha \(alpha) at \(edge)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 144)
    }

    @Test("ThumbHash's RGBA values are each byte over 255, as divided")
    func unitValues() {
        var bytes: [UInt8] = []
        for v in 0...255 { bytes += [UInt8(v), UInt8(255 - v), UInt8(v / 2), UInt8(v)] }
        let bitmap = Bitmap(width: 256, height: 1, format: .rgba8, pixels: bytes)
        let values = ThumbHash.rgba(bitmap)
        let divided: [UInt64] = bytes.map { (Double($0) / 255).bitPattern }
        #expect(values.map { $0.bitPattern } == divided)
    }
}
