import Foundation
import GallerySync
import Testing
@testable import GalleryImaging

/// What makes the copy check cheap without changing what it finds: the profile fit's sample places
/// taken from a table, the image comparison's interpolated rows kept between comparisons, the screen
/// that stops once the verdict is clear, and the alignments finished or combined later. Each against
/// the computation it stands for, on the demo photographs.
@Suite struct FingerprintCopyCheckShortcutTests {
    /// The photo cut to windows as a copy or a burst's frame would be (x, y, w, h), from 2% to 20%.
    static let windows: [(x: Double, y: Double, w: Double, h: Double)] = [
        (0, 0, 0.97, 1), (0, 0, 1, 0.95), (0.03, 0.03, 0.94, 0.94), (0.05, 0, 0.95, 0.95), (0, 0, 0.92, 0.92),
        (0.04, 0.02, 0.9, 0.93), (0.06, 0, 0.94, 1), (0.1, 0.05, 0.88, 0.9), (0.02, 0.08, 0.95, 0.9), (0.15, 0.1, 0.85, 0.85),
    ]

    @Test("the profile fit's table holds the places and weights the interpolation computes, so every comparison sums the same")
    func profileGrid() {
        var random = SplitMix64(seed: 38)
        let n = GreyReduction.side
        let a = (0..<n).map { _ in Float(random.next() % 256) }, b = (0..<n).map { _ in Float(random.next() % 256) }
        var compared = 0
        for scale in 0..<CopyCheck.ProfileGrid.scales {
            for offset in -20...20 {
                // The comparison as the fit computed it before the table: both places from the scale and offset.
                let s = 0.86 + 0.02 * Double(scale), d = 0.01 * Double(offset)
                let lo = max(0, d), hi = min(1, d + s)
                var direct = (error: Float.infinity, scale: 0, offset: 0)
                if hi - lo >= 0.6 {
                    func interpolate(_ profile: [Float], _ x: Double) -> Float {
                        let f = min(max(x * Double(n) - 0.5, 0), Double(n - 1))
                        let i = Int(f), w = Float(f - Double(i))
                        return profile[i] + (profile[min(i + 1, n - 1)] - profile[i]) * w
                    }
                    var sum: Float = 0
                    let spacing = (hi - lo) / Double(n), inverse = 1 / s
                    for i in 0..<n {
                        let xa = lo + (Double(i) + 0.5) * spacing
                        sum += abs(interpolate(a, xa) - interpolate(b, (xa - d) * inverse))
                    }
                    direct = (sum / Float(n), scale, offset)
                    compared += 1
                }
                let table = CopyCheck.profileError(a, b, scale, offset, bound: .infinity)
                #expect(table ?? .infinity == direct.error, "scale \(s), offset \(d)")
            }
        }
        #expect(compared > 400)
    }

    @Test("a profile comparison stops early only where its whole error lies above the bound, and the fit finds what it found comparing every point in full")
    func profileBound() throws {
        var stopped = 0, compared = 0, wrong: [String] = []  // one issue, not one a point, when it breaks
        let photos = try FingerprintCopyCheckTests.photos()
        for (index, photo) in photos.enumerated() {
            let a = CopyCheck.Frame(FingerprintCopyCheckTests.reduction(photo, 0, 0, 1, 1))
            for window in Self.windows + [(x: 0, y: 0, w: 1, h: 1)] {
                let b = CopyCheck.Frame(FingerprintCopyCheckTests.reduction(photos[(index + 1) % photos.count], window.x, window.y, window.w, window.h))
                let c = CopyCheck.Frame(FingerprintCopyCheckTests.reduction(photo, window.x, window.y, window.w, window.h))
                for (pa, pb) in [(a.fine.columns, b.fine.columns), (a.fine.rows, c.fine.rows), (a.fine.columns, c.fine.columns)] {
                    // Every point against a bound near the best errors: the error itself when compared, nil only above the bound.
                    for scale in 0..<CopyCheck.ProfileGrid.scales {
                        for offset in -20...20 {
                            guard let whole = CopyCheck.profileError(pa, pb, scale, offset, bound: .infinity) else { continue }
                            let bound = whole * [0.6, 0.9, 1, 1.1, 2][(scale + offset + 20) % 5]
                            let bounded = CopyCheck.profileError(pa, pb, scale, offset, bound: bound)
                            if !(bounded == nil ? whole > bound : bounded == whole) { wrong.append("\(String(describing: bounded)), whole \(whole), bound \(bound)") }
                            if bounded == nil { stopped += 1 }
                            compared += 1
                        }
                    }
                    // The fit as it was: every point of the coarse grid compared in full.
                    var best = (error: Float.infinity, scale: 0, offset: 0), second = best
                    for scale in stride(from: 0, through: 14, by: 2) {
                        for offset in stride(from: -20, through: 20, by: 2) {
                            guard let error = CopyCheck.profileError(pa, pb, scale, offset, bound: .infinity) else { continue }
                            let previous = best
                            CopyCheck.take(error, scale, offset, &best)
                            if best != previous { second = previous } else { CopyCheck.take(error, scale, offset, &second) }
                        }
                    }
                    var found = best
                    for around in [best, second] where around.error.isFinite {
                        for scale in max(0, around.scale - 1)...min(14, around.scale + 1) {
                            for offset in max(-20, around.offset - 2)...min(20, around.offset + 2) where scale % 2 == 1 || offset % 2 != 0 {
                                if let error = CopyCheck.profileError(pa, pb, scale, offset, bound: .infinity) { CopyCheck.take(error, scale, offset, &found) }
                            }
                        }
                    }
                    let fit = CopyCheck.fit(pa, pb)
                    if !(fit.scale == 0.86 + 0.02 * Double(found.scale) && fit.offset == 0.01 * Double(found.offset)) { wrong.append("fit \(fit), in full \(found)") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, the first: \(wrong.prefix(5))")
        // Both outcomes of the bound occur.
        #expect(stopped > compared / 10 && stopped < compared * 9 / 10, "\(stopped) of \(compared) stopped")
    }

    @Test("a comparison with the rows kept from earlier ones equals one made afresh, along a search's path, and one with a bound stops only past it")
    func keptRows() {
        var random = SplitMix64(seed: 7)
        func frame() -> CopyCheck.Frame {
            CopyCheck.Frame(GreyReduction(pixels: (0..<576).map { i in UInt8(truncatingIfNeeded: (i % 24) * 9 + Int(random.next() % 40)) })!)
        }
        let (a, b) = (frame(), frame())
        let kept = CopyCheck.Scratch()
        var p = SIMD4<Double>(1, 1, 0, 0), stopped = 0
        for step in 0..<400 {
            // One parameter at a time, back and forth, as the descent moves: horizontal placements repeat.
            var q = p
            q[step % 4] += Double(Int(random.next() % 5) - 2) * 0.01
            if (0.84...1.16).contains(q[0]) && (0.84...1.16).contains(q[1]) && abs(q[2]) <= 0.25 && abs(q[3]) <= 0.25 { p = q }
            let fresh = CopyCheck.Scratch().error(a.fine, b.fine, p)
            if step % 2 == 0 {
                #expect(kept.error(a.fine, b.fine, p).bitPattern == fresh.bitPattern, "at \(p)")
            } else {
                // A search's question: below the best so far? Infinity only where the answer is no.
                let bound = fresh * [0.5, 0.9, 1, 1.02, 1.5][step / 2 % 5]
                let bounded = kept.error(a.fine, b.fine, p, bound: bound)
                #expect(bounded.bitPattern == fresh.bitPattern || (bounded == .infinity && fresh >= bound), "at \(p): \(bounded), \(fresh), bound \(bound)")
                if bounded == .infinity, fresh.isFinite { stopped += 1 }
            }
        }
        // The bound stopped some comparisons, not all.
        #expect(stopped > 20 && stopped < 180, "\(stopped) stopped")
    }

    @Test("the screen's verdict is the whole check's, and finishing a copy's alignment gives exactly the whole check")
    func screen() throws {
        var pairs = 0, stoppedEarly = (copies: 0, others: 0), stoppedAtFit = 0
        for photo in try FingerprintCopyCheckTests.photos() {
            let whole = FingerprintCopyCheckTests.reduction(photo, 0, 0, 1, 1)
            for window in Self.windows {
                let cut = FingerprintCopyCheckTests.reduction(photo, window.x, window.y, window.w, window.h)
                for (a, b) in [(whole, cut), (cut, whole)] {
                    let full = CopyCheck(a, b)
                    let (check, alignment) = CopyCheck.screen(CopyCheck.Frame(a), CopyCheck.Frame(b))
                    #expect(check.isCopy == full.isCopy, "screened \(check), whole \(full)")
                    // A copy's (the grouping finishes only copies' alignments; a clear non-copy the whole
                    // check leaves where the screen does).
                    if check.isCopy { #expect(CopyCheck(CopyCheck.Frame(a), CopyCheck.Frame(b), from: alignment) == full) }
                    if alignment.nextStep == 0.02 {
                        stoppedAtFit += 1
                    } else if !alignment.isFinest {
                        if check.isCopy { stoppedEarly.copies += 1 } else { stoppedEarly.others += 1 }
                    }
                    pairs += 1
                }
            }
        }
        print("screen: \(pairs) pairs, stopped at the profile fit: \(stoppedAtFit), after the steps of 0.02: \(stoppedEarly)")
        // Every early stop happens, so each is held to the whole check.
        #expect(stoppedEarly.copies > 0 && stoppedEarly.others > 0 && stoppedAtFit > 0)
    }

    @Test("combining two alignments on a third frame maps every point of one frame where the two maps through the third put it")
    func combinedMapsPoints() {
        var random = SplitMix64(seed: 11)
        func uniform(_ range: ClosedRange<Double>) -> Double { range.lowerBound + Double(random.next() % 10_000) / 10_000 * (range.upperBound - range.lowerBound) }
        for _ in 0..<200 {
            // B and C laid on A: a point u of B's frame (0...1 on an axis) lies at offset + scale * u of A's.
            let b = CopyCheck.Alignment(SIMD4(uniform(0.86...1.14), uniform(0.86...1.14), uniform(-0.2...0.2), uniform(-0.2...0.2)), nextStep: 0)
            let c = CopyCheck.Alignment(SIMD4(uniform(0.86...1.14), uniform(0.86...1.14), uniform(-0.2...0.2), uniform(-0.2...0.2)), nextStep: 0)
            for (other, onA) in [(Optional(c), c.parameters), (nil, SIMD4<Double>(1, 1, 0, 0))] {
                let r = b.relative(other).parameters
                #expect(!b.relative(other).isFinest)
                for u in [0.0, 0.3, 1.0] {
                    for axis in 0..<2 {
                        // Through A: C's point u in A's frame, then in B's.
                        let throughA = (onA[axis + 2] + onA[axis] * u - b.parameters[axis + 2]) / b.parameters[axis]
                        #expect(abs(r[axis + 2] + r[axis] * u - throughA) < 1e-12, "axis \(axis), u \(u): \(r) from \(b) and \(String(describing: other))")
                    }
                }
            }
        }
    }

    @Test("two windows' alignments on the photo, combined, lay one window on the other as near where they were cut as a check afresh")
    func combined() throws {
        var wrong: [String] = [], pairs = 0, closer = 0, offs = (combined: [Double](), afresh: [Double]())
        for (index, photo) in try FingerprintCopyCheckTests.photos().enumerated() {
            let whole = CopyCheck.Frame(FingerprintCopyCheckTests.reduction(photo, 0, 0, 1, 1))
            typealias Cut = (window: Int, frame: CopyCheck.Frame)
            let cuts: [Cut] = Self.windows.prefix(6).indices.map { i in
                let window = Self.windows[i]
                return (i, CopyCheck.Frame(FingerprintCopyCheckTests.reduction(photo, window.x, window.y, window.w, window.h)))
            }
            for shown in cuts {
                let onWhole = CopyCheck.screen(whole, shown.frame)
                guard onWhole.check.isCopy else { continue }
                // The photo itself (nil) and the other windows, on the shown window.
                let members: [Cut?] = [nil] + cuts.filter { $0.window != shown.window }
                for member in members {
                    let memberOnWhole = member.map { CopyCheck.screen(whole, $0.frame) }
                    guard memberOnWhole?.check.isCopy ?? true else { continue }
                    let s = Self.windows[shown.window], m = member.map { Self.windows[$0.window] } ?? (x: 0, y: 0, w: 1, h: 1)
                    let truth = SIMD4(m.w / s.w, m.h / s.h, (m.x - s.x) / s.w, (m.y - s.y) / s.h)
                    let start = onWhole.alignment.relative(memberOnWhole?.alignment)
                    let check = CopyCheck(shown.frame, member?.frame ?? whole, from: start)
                    let fresh = CopyCheck(shown.frame, member?.frame ?? whole)
                    func off(_ c: CopyCheck) -> Double {
                        let d = SIMD4(c.scaleX, c.scaleY, c.offsetX, c.offsetY) - truth
                        return pointwiseMax(d, -d).max()
                    }
                    if off(check) < off(fresh) { closer += 1 }
                    offs.combined.append(off(check))
                    offs.afresh.append(off(fresh))
                    if check.isCopy != fresh.isCopy || start.isFinest { wrong.append("\(index) \(s) / \(m): \(check), afresh \(fresh), want \(truth)") }
                    pairs += 1
                }
            }
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }
        func share(_ values: [Double], within bound: Double) -> Double { Double(values.filter { $0 <= bound }.count) / Double(max(1, values.count)) }
        print(String(format: "combined alignments: %d pairs, %d nearer where the windows were cut than afresh; off by %.4f on average "
                     + "(afresh %.4f), within 0.02 %.0f%% (afresh %.0f%%); another verdict on %d: ", pairs, closer, mean(offs.combined),
                     mean(offs.afresh), 100 * share(offs.combined, within: 0.02), 100 * share(offs.afresh, within: 0.02), wrong.count) + "\(wrong)")
        #expect(pairs > 100)
        // Each of the two alignments is off by up to a step, and the search from their combination
        // sometimes stays in another valley than the search afresh: on average as near, and the
        // verdict nearly always the same.
        #expect(mean(offs.combined) <= mean(offs.afresh) + 0.003 && share(offs.combined, within: 0.02) >= share(offs.afresh, within: 0.02) - 0.05)
        #expect(wrong.count <= pairs / 25, "\(wrong)")
    }
}
