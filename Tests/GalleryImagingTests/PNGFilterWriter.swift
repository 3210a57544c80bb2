import GalleryImaging

/// Writes PNGs the encoders here cannot: any colour type and bit depth, with the filter type of each
/// row chosen by the test (all five, in turn) and the image data in stored (uncompressed) deflate
/// blocks, so every filter meets every pixel size (1 to 8 bytes) and every sample expansion.
enum PNGFilterWriter {
    struct Layout: CustomStringConvertible, Sendable {
        let colorType: UInt8  // 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
        let depth: Int
        var transparency = false  // a tRNS chunk (grey, RGB, palette)
        var samples: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)]! }
        var bytesPerPixel: Int { max(1, samples * depth / 8) }
        var description: String { "type \(colorType), \(depth)-bit\(transparency ? ", tRNS" : "")" }
    }

    /// Sample `c` of pixel (x, y), `depth` bits, taken from a photograph's RGB.
    static func sample(_ photo: Bitmap, _ x: Int, _ y: Int, _ c: Int, _ layout: Layout) -> Int {
        let v = Int(photo[x, y, c % 3])
        let isAlpha = (layout.colorType == 4 && c == 1) || (layout.colorType == 6 && c == 3)
        let base = isAlpha ? (x ^ y) & 0xFF : v
        switch layout.depth {
        case 16: return base << 8 | Int(photo[x, y, (c + 1) % 3])  // a low byte that varies too
        case 8: return base
        default: return base >> (8 - layout.depth)
        }
    }

    /// The unfiltered rows (bytes as stored), width x height pixels of `layout`.
    static func rawRows(_ photo: Bitmap, width: Int, height: Int, _ layout: Layout) -> [[UInt8]] {
        (0..<height).map { y in
            var row = [UInt8]()  // samples below 8 bits packed MSB first
            var acc = 0, filled = 0
            for x in 0..<width {
                for c in 0..<layout.samples {
                    let s = sample(photo, x, y, c, layout)
                    if layout.depth == 16 { row += [UInt8(s >> 8), UInt8(s & 0xFF)]; continue }
                    acc = acc << layout.depth | s
                    filled += layout.depth
                    if filled == 8 { row.append(UInt8(acc)); acc = 0; filled = 0 }
                }
            }
            if filled > 0 { row.append(UInt8(acc << (8 - filled))) }
            return row
        }
    }

    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    /// Row y filtered with filter type y % 5 (or `filters(y)`), prefixed by its type byte.
    static func filtered(_ rows: [[UInt8]], bpp: Int, filter: (Int) -> Int) -> [UInt8] {
        var out = [UInt8]()
        for (y, row) in rows.enumerated() {
            let f = filter(y)
            let prev = y > 0 ? rows[y - 1] : [UInt8](repeating: 0, count: row.count)
            out.append(UInt8(f))
            for i in 0..<row.count {
                let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(prev[i]), c = i >= bpp ? Int(prev[i - bpp]) : 0
                let predictor = [0, a, b, (a + b) / 2, paeth(a, b, c)][f]
                out.append(UInt8((Int(row[i]) - predictor) & 0xFF))
            }
        }
        return out
    }

    /// A zlib stream of stored blocks holding `data`.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let n = min(65_535, data.count - at)
            out.append(at + n == data.count ? 1 : 0)
            out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[at..<(at + n)]
            at += n
        } while at < data.count
        var (s1, s2) = (UInt32(1), UInt32(0))
        for byte in data { s1 = (s1 + UInt32(byte)) % 65_521; s2 = (s2 + s1) % 65_521 }
        return out + PNGChunks.uint32(s2 << 16 | s1)
    }

    /// The whole file: IHDR, PLTE (200 of 256 entries, so high indices meet the missing ones), tRNS,
    /// and the data split over IDAT chunks of 8 KB.
    static func png(_ photo: Bitmap, width: Int, height: Int, _ layout: Layout,
                    filter: (Int) -> Int = { $0 % 5 }) -> [UInt8] {
        let rows = rawRows(photo, width: width, height: height, layout)
        let z = storedZlib(filtered(rows, bpp: layout.bytesPerPixel, filter: filter))
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let fields: [UInt8] = [UInt8(layout.depth), layout.colorType, 0, 0, 0]
        out += PNGChunks.chunk("IHDR", PNGChunks.uint32(UInt32(width)) + PNGChunks.uint32(UInt32(height)) + fields)
        if layout.colorType == 3 {
            let entries = layout.depth == 8 ? 200 : 1 << layout.depth
            var palette = [UInt8]()
            for i in 0..<entries {
                let rgb: [UInt8] = [UInt8(i), UInt8(255 - i), UInt8(i * 7 & 0xFF)]
                palette += rgb
            }
            out += PNGChunks.chunk("PLTE", palette)
        }
        if layout.transparency {
            let key = sample(photo, 0, 0, 0, layout)  // a value that occurs
            let k16: [UInt8] = [UInt8(key >> 8 & 0xFF), UInt8(key & 0xFF)]
            switch layout.colorType {
            case 0: out += PNGChunks.chunk("tRNS", k16)
            case 2:
                let g = sample(photo, 0, 0, 1, layout), b = sample(photo, 0, 0, 2, layout)
                let gb: [UInt8] = [UInt8(g >> 8 & 0xFF), UInt8(g & 0xFF), UInt8(b >> 8 & 0xFF), UInt8(b & 0xFF)]
                out += PNGChunks.chunk("tRNS", k16 + gb)
            default: out += PNGChunks.chunk("tRNS", (0..<100).map { UInt8($0 * 5 % 256) })
            }
        }
        var at = 0
        while at < z.count {
            let n = min(8192, z.count - at)
            out += PNGChunks.chunk("IDAT", Array(z[at..<(at + n)]))
            at += n
        }
        return out + PNGChunks.chunk("IEND", [])
    }
}
