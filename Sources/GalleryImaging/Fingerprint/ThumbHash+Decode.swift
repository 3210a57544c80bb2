import Foundation

extension ThumbHash {
    /// Why bytes are not a ThumbHash.
    public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with them.
        public var reason: String
        public var description: String { "not a ThumbHash: " + reason }
    }

    /// The image the hash describes, `longestEdge` pixels on its longer side (at its approximate
    /// aspect ratio), as straight-alpha RGBA.
    ///
    /// As the format's reference decoder does, the colour channels' terms are boosted by 1.25 (the
    /// 4-bit steps lose saturation) and every term but the constant is doubled (the cosine basis's
    /// normalisation, which the encoder's plain mean leaves out).
    public func decoded(longestEdge: Int = 32) throws(FormatError) -> Bitmap {
        let header = try Header(bytes)
        let ratio = Double(header.lx) / Double(header.ly)
        let w = ratio > 1 ? longestEdge : max(1, Int((Double(longestEdge) * ratio).rounded()))
        let h = ratio > 1 ? max(1, Int((Double(longestEdge) / ratio).rounded())) : longestEdge
        var reader = NibbleReader(bytes: bytes, start: header.hasAlpha ? 6 : 5)
        let l = try reader.terms(nx: header.lx, ny: header.ly, scale: header.lScale)
        let p = try reader.terms(nx: 3, ny: 3, scale: header.pScale * 1.25)
        let q = try reader.terms(nx: 3, ny: 3, scale: header.qScale * 1.25)
        let a = header.hasAlpha ? try reader.terms(nx: 5, ny: 5, scale: header.aScale) : []
        let span = max(header.lx, header.ly, header.hasAlpha ? 5 : 3)
        // Each column's cosines, computed once for all rows (each row's once for its columns).
        let columns = (0..<w).map { x in
            (0..<span).map { c in cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(c)) }
        }
        return Bitmap(width: w, height: h, format: .rgba8) { out in
            var fy = [Double](repeating: 0, count: span)
            for y in 0..<h {
                for c in 0..<span { fy[c] = cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(c)) }
                for x in 0..<w {
                    let fx = columns[x]
                    let lum = header.lDC + Self.sum(l, nx: header.lx, ny: header.ly, fx, fy)
                    let pv = header.pDC + Self.sum(p, nx: 3, ny: 3, fx, fy)
                    let qv = header.qDC + Self.sum(q, nx: 3, ny: 3, fx, fy)
                    let av = header.hasAlpha ? header.aDC + Self.sum(a, nx: 5, ny: 5, fx, fy) : 1
                    let b = lum - 2.0 / 3.0 * pv
                    let r = (3 * lum - b + qv) / 2
                    let g = r - qv
                    let o = 4 * (y * w + x)
                    out[o] = Self.byte(r)
                    out[o + 1] = Self.byte(g)
                    out[o + 2] = Self.byte(b)
                    out[o + 3] = Self.byte(av)
                }
            }
        }
    }

    /// A channel's value in 0...1 as a byte, rounded.
    @inline(__always)
    private static func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(1, v)) * 255 + 0.5) }

    /// The terms of one channel at one pixel, in the encoder's order (the constant left out).
    static func sum(_ terms: [Double], nx: Int, ny: Int, _ fx: [Double], _ fy: [Double]) -> Double {
        var total = 0.0, j = 0
        for cy in 0..<ny {
            var cx = cy == 0 ? 1 : 0
            while cx * ny < nx * (ny - cy) {
                total += terms[j] * fx[cx] * fy[cy] * 2
                j += 1
                cx += 1
            }
        }
        return total
    }

    /// The fixed part at the front of a hash.
    struct Header {
        var lDC, pDC, qDC, lScale, pScale, qScale: Double
        var aDC = 1.0, aScale = 0.0
        var hasAlpha: Bool
        var lx, ly: Int

        init(_ bytes: [UInt8]) throws(FormatError) {
            guard bytes.count >= 5 else { throw FormatError(reason: "\(bytes.count) bytes, the header alone is 5") }
            let h24 = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16
            let h16 = UInt32(bytes[3]) | UInt32(bytes[4]) << 8
            lDC = Double(h24 & 63) / 63
            pDC = Double(h24 >> 6 & 63) / 31.5 - 1
            qDC = Double(h24 >> 12 & 63) / 31.5 - 1
            lScale = Double(h24 >> 18 & 31) / 31
            hasAlpha = h24 >> 23 != 0
            pScale = Double(h16 >> 3 & 63) / 63
            qScale = Double(h16 >> 9 & 63) / 63
            let landscape = h16 >> 15 != 0
            let short = Int(h16 & 7), long = hasAlpha ? 5 : 7
            lx = max(3, landscape ? long : short)
            ly = max(3, landscape ? short : long)
            if hasAlpha {
                guard bytes.count >= 6 else { throw FormatError(reason: "the alpha byte is missing") }
                aDC = Double(bytes[5] & 15) / 15
                aScale = Double(bytes[5] >> 4) / 15
            }
        }
    }

    /// Reads the 4-bit terms, low nibble first.
    struct NibbleReader {
        var bytes: [UInt8]
        var start: Int
        var index = 0

        mutating func terms(nx: Int, ny: Int, scale: Double) throws(FormatError) -> [Double] {
            var out: [Double] = []
            for cy in 0..<ny {
                var cx = cy == 0 ? 1 : 0
                while cx * ny < nx * (ny - cy) {
                    let at = start + index / 2
                    guard at < bytes.count else {
                        throw FormatError(reason: "\(bytes.count) bytes, too few for its own header's term counts")
                    }
                    let nibble = bytes[at] >> (UInt8(index % 2) * 4) & 15
                    out.append((Double(nibble) / 7.5 - 1) * scale)
                    index += 1
                    cx += 1
                }
            }
            return out
        }
    }
}
