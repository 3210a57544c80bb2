import Foundation
import GalleryImaging
import Testing

/// The grey reduction and the copy check on the demo photographs, cut and changed with the project's
/// own codecs and resampler: a window of the photo, resized back to the photo's shape as a copy or a
/// burst's next frame would be, and the photo with a tenth of it replaced.
@Suite struct FingerprintCopyCheckTests {
    /// The demo photographs, decoded at about 800 pixels.
    static func photos() throws -> [Bitmap] {
        let folder = FingerprintFixtures.demoFolder
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.sorted().map {
            try Thumbnailer(longestEdge: 800).render(ImageDecoder.decode(fileAt: folder + "/" + $0, options: DecodeOptions(target: .longestEdge(800))))
        }
    }

    /// The reduction the gallery keeps of the window (x, y, w, h: fractions of the photo) resized back to
    /// a 256-pixel thumbnail of the photo's shape.
    static func reduction(_ photo: Bitmap, _ x: Double, _ y: Double, _ w: Double, _ h: Double) -> GreyReduction {
        let (x0, y0) = (Int(x * Double(photo.width)), Int(y * Double(photo.height)))
        let (cw, ch) = (Int(w * Double(photo.width)), Int(h * Double(photo.height)))
        let channels = photo.format.channels
        let window = photo.withUnsafeBytes { source in
            Bitmap(width: cw, height: ch, format: photo.format) { out in
                for row in 0..<ch {
                    for i in 0..<(cw * channels) { out[row * cw * channels + i] = source[(y0 + row) * photo.bytesPerRow + x0 * channels + i] }
                }
            }
        }
        let (tw, th) = photo.width >= photo.height ? (256, 256 * photo.height / photo.width) : (256 * photo.width / photo.height, 256)
        return ImageFingerprint(of: Resampler.default.scale(window, width: tw, height: th)).grey
    }

    @Test("a photo against itself: no shift, no scale, no difference")
    func itself() throws {
        let photo = try #require(try Self.photos().first)
        let grey = Self.reduction(photo, 0, 0, 1, 1)
        let check = CopyCheck(grey, grey)
        #expect(check.scaleX == 1 && check.scaleY == 1 && check.offsetX == 0 && check.offsetY == 0)
        #expect(check.cellError == 0 && check.coverage == 1 && check.outside == 0 && check.trim == 0 && check.isCopy)
    }

    @Test("crops of 5% are copies, found where they were cut; pans of 10% and 20% are not", arguments: [false, true])
    func cropsAndPans(vertical: Bool) throws {
        var wrong: [String] = [], misplaced: [String] = []
        for (index, photo) in try Self.photos().enumerated() {
            func window(_ along: Double, _ length: Double) -> GreyReduction {
                vertical ? Self.reduction(photo, 0, along, 1, length) : Self.reduction(photo, along, 0, length, 1)
            }
            let whole = Self.reduction(photo, 0, 0, 1, 1)
            // 5% off the right (bottom): B's frame is 0.95 of A's, at its left (top) edge.
            let crop = CopyCheck(whole, window(0, 0.95))
            let (scale, offset) = vertical ? (crop.scaleY, crop.offsetY) : (crop.scaleX, crop.offsetX)
            if !crop.isCopy || abs(scale - 0.95) > 0.025 || abs(offset) > 0.025 { wrong.append("\(index) crop: \(crop)") }
            // Frames of 80% panned by 10% and 20% of the photo: 12.5% and 25% of a frame apart.
            let first = window(0, 0.8)
            for pan in [0.1, 0.2] {
                let check = CopyCheck(first, window(pan, 0.8))
                let shift = vertical ? check.offsetY : check.offsetX
                if check.isCopy { wrong.append("\(index) pan \(pan): \(check)") }
                if pan == 0.1, abs(shift - pan / 0.8) > 0.025 { misplaced.append("\(index): \(check)") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong)")
        // The pan is measured where it is (12.5% of a frame) but on a photo whose rows look alike when
        // shifted (a road in perspective lines up with itself at another scale).
        #expect(misplaced.count <= 1, "\(misplaced)")
    }

    @Test("a tenth of the photo replaced by another photo's pixels there is not a copy, though its mean error is small")
    func changedRegion() throws {
        let photos = try Self.photos()
        var wrong: [String] = []
        for (index, photo) in photos.enumerated() {
            let donor = Resampler.default.scale(photos[(index + 3) % photos.count], width: photo.width, height: photo.height)
            guard donor.format == photo.format else { continue }
            let side = 0.1.squareRoot()
            let (rw, rh) = (Int(Double(photo.width) * side), Int(Double(photo.height) * side))
            let (x, y) = ((photo.width - rw) / 3, (photo.height - rh) / 2)
            let channels = photo.format.channels
            let changed = photo.withUnsafeBytes { source in
                donor.withUnsafeBytes { other in
                    Bitmap(width: photo.width, height: photo.height, format: photo.format) { out in
                        for row in 0..<photo.height {
                            for column in 0..<photo.width {
                                let inside = row >= y && row < y + rh && column >= x && column < x + rw
                                for c in 0..<channels {
                                    out[(row * photo.width + column) * channels + c] = inside
                                        ? other[row * donor.bytesPerRow + column * channels + c] : source[row * photo.bytesPerRow + column * channels + c]
                                }
                            }
                        }
                    }
                }
            }
            let check = CopyCheck(Self.reduction(photo, 0, 0, 1, 1), Self.reduction(changed, 0, 0, 1, 1))
            if check.isCopy || check.cellError <= CopyCheck.maxCellError { wrong.append("\(index): \(check)") }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("the settled search finds where a window was cut more often than the exhaustive one, and nearly always agrees")
    func againstExhaustiveSearch() throws {
        var differ: [String] = [], pairs = 0, copies = 0, found = (fast: 0, full: 0)
        for (index, photo) in try Self.photos().enumerated() {
            let whole = Self.reduction(photo, 0, 0, 1, 1)
            // Windows of the photo: cut on one side or all round, panned, and both, 2-20% of a side.
            let windows: [(x: Double, y: Double, w: Double, h: Double)] = [
                (0, 0, 0.97, 1), (0, 0, 1, 0.95), (0.03, 0.03, 0.94, 0.94), (0.05, 0, 0.95, 0.95), (0, 0, 0.92, 0.92),
                (0.04, 0.02, 0.9, 0.93), (0.06, 0, 0.94, 1), (0.1, 0.05, 0.88, 0.9), (0.02, 0.08, 0.95, 0.9), (0.15, 0.1, 0.85, 0.85),
            ]
            for window in windows {
                let cut = Self.reduction(photo, window.x, window.y, window.w, window.h)
                // The window in the photo's frame, and the photo in the window's.
                let truths = [SIMD4(window.w, window.h, window.x, window.y),
                              SIMD4(1 / window.w, 1 / window.h, -window.x / window.w, -window.y / window.h)]
                for (order, (a, b)) in [(whole, cut), (cut, whole)].enumerated() {
                    let fast = CopyCheck(a, b), full = ExhaustiveCopyCheck(a, b)
                    func near(_ p: SIMD4<Double>) -> Bool { ((p - truths[order]) * (p - truths[order])).max() <= 0.02 * 0.02 }
                    // Where it was cut matters for the copies (the gallery shows their alignment); a pair
                    // clearly not a copy is left at the coarser alignment.
                    if full.isCopy, near(SIMD4(fast.scaleX, fast.scaleY, fast.offsetX, fast.offsetY)) { found.fast += 1 }
                    if full.isCopy, near(SIMD4(full.scaleX, full.scaleY, full.offsetX, full.offsetY)) { found.full += 1 }
                    pairs += 1
                    if full.isCopy { copies += 1 }
                    if fast.isCopy != full.isCopy { differ.append("\(index) window \(window): \(fast) against \(full)") }
                }
            }
        }
        print("copy check on \(pairs) windows: copies found where they were cut, within 0.02: settled search \(found.fast), exhaustive \(found.full); "
              + "verdicts differ on \(differ.count): \(differ)")
        // Both verdicts occur, so the comparison is not of one kind of pair only.
        #expect(copies > pairs / 5 && copies < pairs * 4 / 5, "\(copies) copies of \(pairs)")
        // The exhaustive search walks a grid of 0.02; the descent goes on to 0.0025, and besides moving one
        // edge of an axis it scales the axis about its centre (a crop all round), so it ends nearer the cut
        // more often (107 against 92; moving one edge only, 91, its steps stalled in a valley where the
        // scale and the offset must change together).
        #expect(found.fast >= found.full + 8 && found.full > copies / 2, "\(found) of \(copies) copies")
        #expect(differ.count <= pairs / 50, "\(differ.count) of \(pairs) differ: \(differ)")
    }

    @Test("kept as 768 characters of base64; anything but 576 pixels is refused, naming what it wanted")
    func base64() throws {
        let grey = Self.reduction(try #require(try Self.photos().first), 0, 0, 1, 1)
        #expect(grey.base64.utf8.count == 768 && GreyReduction(base64: grey.base64) == grey)
        let json = try JSONEncoder().encode([grey])
        #expect(try JSONDecoder().decode([GreyReduction].self, from: json) == [grey])
        #expect(GreyReduction(pixels: [1, 2, 3]) == nil && GreyReduction(base64: "AAAA") == nil && GreyReduction(base64: "not base64!") == nil)
        do {
            _ = try JSONDecoder().decode([GreyReduction].self, from: Data(#"["AAAA"]"#.utf8))
            Issue.record("a 3-byte reduction decoded")
        } catch {
            #expect(String(describing: error).contains("24x24 grey reduction"))
        }
    }
}
