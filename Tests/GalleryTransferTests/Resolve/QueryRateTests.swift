import Testing
@testable import GalleryTransfer

/// The pace alone, on a simulated clock: names asked (A and AAAA) at a steady demand below the pace, each
/// either answered at once, silent (both questions lost, given up 7 s later) or dropped (both lost, answered
/// by the retry a second later). What the pace does when the mix changes from a first pass over new names
/// (a few silent, a few dropped) to a second pass that asks only about names whose failure expired.
@Suite struct QueryRateTests {
    enum Kind { case answered, silent, dropped }

    /// Runs `phases` (seconds, names a second, the kind of the n-th name of each 100) and returns the pace's
    /// cuts at the end of each phase.
    func simulate(_ phases: [(seconds: Int, namesPerSecond: Int, kind: (Int) -> Kind)]) -> [Int] {
        var rate = QueryRate(initial: 50, minimum: 5, maximum: 20_000, increasePerSecond: 20)
        var events: [(at: UInt64, act: (inout QueryRate, UInt64) -> Void)] = []
        var cutsAfter: [Int] = []
        var now: UInt64 = 1_000_000_000
        let step: UInt64 = 10_000_000
        var waiting = 0  // questions wanting to go out
        var sentNames = 0
        var kinds: [Kind] = []
        for phase in phases {
            let end = now + UInt64(phase.seconds) * 1_000_000_000
            var credit = 0.0
            while now < end {
                credit += Double(phase.namesPerSecond) * Double(step) / 1e9
                while credit >= 1 {
                    credit -= 1
                    kinds.append(phase.kind(kinds.count % 100))
                    waiting += 2
                }
                while waiting > 0, rate.take(now) {
                    waiting -= 1
                    let index = sentNames / 2
                    let name = "host\(index).test"
                    sentNames += 1
                    let sentAt = now
                    switch kinds[index] {
                    case .answered:
                        events.append((now + 5_000_000, { r, t in r.answered(t) }))
                    case .silent:
                        events.append((now + 300_000_000, { r, t in r.lost(t, sentAt: sentAt, name: name) }))
                        events.append((now + 7_000_000_000, { r, _ in r.lossEnded(silent: true) }))
                    case .dropped:
                        events.append((now + 300_000_000, { r, t in r.lost(t, sentAt: sentAt, name: name) }))
                        events.append((now + 1_050_000_000, { r, t in
                            r.answered(t)
                            r.lossEnded(silent: false)
                        }))
                    }
                }
                now += step
                let due = events.filter { $0.at <= now }
                events.removeAll { $0.at <= now }
                for event in due.sorted(by: { $0.at < $1.at }) { event.act(&rate, event.at) }
            }
            cutsAfter.append(rate.decreases)
        }
        return cutsAfter
    }

    /// A first pass: 60 names a second, 3 in 100 silent and 5 dropped (a resolver near its limit).
    let firstPass = (seconds: 20, namesPerSecond: 60, kind: { (n: Int) -> Kind in n % 33 == 5 ? .silent : n % 20 == 3 ? .dropped : .answered })

    @Test func aSecondPassOfNamesThatNeverAnswerLeavesThePaceAlone() {
        // The second pass: 10 names a second, 8 in 10 silent. Counted in full (or against the share of
        // silent names among all questions, which the first pass keeps near 2% for thousands of questions),
        // their losses cut the pace again and again, to a few questions a second, and names queued behind
        // them for 10-20 s. The share of lost first tries that turned out silent knows within seconds.
        let cuts = simulate([firstPass,
                             (seconds: 10, namesPerSecond: 10, kind: { $0 % 10 < 8 ? .silent : .answered }),
                             (seconds: 20, namesPerSecond: 10, kind: { $0 % 10 < 8 ? .silent : .answered })])
        #expect(cuts[2] == cuts[1], "the pace was cut \(cuts[2] - cuts[1]) times in the second pass's last 20 s (cuts: \(cuts))")
    }

    @Test func aSecondPassOfDroppedQuestionsStillCutsThePace() {
        // The same second pass, but its lost questions are answered when asked again: a resolver past its
        // limit. That is what the pace is for.
        let cuts = simulate([firstPass,
                             (seconds: 10, namesPerSecond: 10, kind: { $0 % 10 < 8 ? .dropped : .answered }),
                             (seconds: 20, namesPerSecond: 10, kind: { $0 % 10 < 8 ? .dropped : .answered })])
        #expect(cuts[2] - cuts[1] >= 3, "cuts: \(cuts)")
    }
}
