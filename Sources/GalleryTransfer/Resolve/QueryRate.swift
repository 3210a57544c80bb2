/// How the resolver paces its questions (see ``QueryRate``): the defaults suit a resolver on this machine
/// or the local network.
public struct DNSPacing: Sendable {
    /// Questions outstanding at once on their first try (later tries are only paced).
    public var maxInFlight = 64
    /// Seconds to wait for each try; their count is the tries, their sum bounds a question (7 s).
    public var tryTimeouts: [Double] = [1, 2, 4]
    /// Questions a second at the start (then doubling every `lossSuspicionFloor` while all are answered).
    public var initialRate: Double = 50
    public var minimumRate: Double = 5
    public var maximumRate: Double = 20_000
    /// Questions a second added each second once a loss was seen.
    public var increasePerSecond: Double = 20
    /// The least time before an unanswered try counts as a loss for the pace (``AnswerDelay``), and so the
    /// least time in which the pace doubles before its first loss.
    public var lossSuspicionFloor: Double = 0.25
    public init() {}
}

/// How fast questions go to the resolver: a token bucket whose rate follows AIMD, as TCP's window does.
/// Each answer raises the rate (doubling every quarter second until the first loss, then by 5% of the limit
/// found each second, 5 to `increasePerSecond`), never past twice (1.2 times after a loss) what was
/// answered in the last second; losses of at least 3 names and 5% of the questions of the current window
/// (a quarter second to a second, at least 10 questions) cut it to 90% of the answers of the last second,
/// by half at most (the first cut, which ends the slow start, to 90% of the answers); losses of questions sent before that cut do not cut again. A resolver that drops what comes past
/// N questions a second (systemd-resolved, ISP resolvers, dnsmasq's limits) is so held near N instead of
/// being flooded, while a few names that never answer do not slow everyone else.
///
/// Losses are counted by name: a name that never answers loses its A and its AAAA question together, and
/// counted apart those two made one such name in a window of 40 questions a cut. With 3% of the names
/// silent (1,250 names, a resolver answering 200 a second) the pace was cut 18 times and held near 50
/// questions a second: 51 s for 2,500 questions. A resolver past its limit drops questions one by one, so
/// by name it still loses about as many as by question.
///
/// And a loss counts only for the part of it that is not a name that never answers. A question whose first
/// try was lost ends either answered by a later try (the resolver dropped it: a sign of the pace) or with
/// every try lost (a name whose authority never answers: not one); ``lossEnded(silent:)`` tells which, and
/// the share of silent ones over the last few dozen such questions discounts each window's losses. When a
/// run's second pass asks again only about the names whose failure expired, most of them silent, the
/// losses are nearly all such names and the pace is left alone (counted in full, they cut it from 200 to
/// 25 questions a second, and those questions queued for 10-20 s). Before any such question ended (the
/// first seconds, the slow start) the losses must reach 10% of the window rather than 5%, which a resolver
/// passed by half still reaches at once.
struct QueryRate {
    private(set) var rate: Double
    let minimum: Double
    let maximum: Double
    let increasePerSecond: Double
    let initial: Double
    /// The slow start's doubling time, at least (``answered(_:lossShowsAfter:)``).
    let growthPeriod: Double
    private var tokens: Double = 1
    private var last: UInt64 = 0
    private var slowStart = true
    private var windowStart: UInt64 = 0
    private var windowAnswers = 0
    private var windowLosses = 0
    /// The names lost in the window (their hashes): each counts once.
    private var windowLostNames: Set<Int> = []
    /// Questions whose first try was lost, since ended: with every try lost, and in all (halved together
    /// past 64, so the share follows the last few dozen).
    private var lostThenSilent = 0
    private var lostThenEnded = 0
    private var lastCut: UInt64 = 0
    /// Questions a second added each second after a loss.
    private var growth: Double
    /// When the answers of the last second came, from `answerHead` on (compacted as it advances).
    private var answerTimes: [UInt64] = []
    private var answerHead = 0
    private var firstAnswer: UInt64 = 0
    private(set) var decreases = 0

    init(initial: Double = 50, minimum: Double = 5, maximum: Double = 20_000, increasePerSecond: Double = 20,
         growthPeriod: Double = 0.25) {
        rate = initial
        self.growthPeriod = growthPeriod
        self.initial = initial
        self.minimum = minimum
        self.maximum = maximum
        self.increasePerSecond = increasePerSecond
        growth = increasePerSecond
    }

    /// At most a tenth of a second's worth at once: a burst never exceeds what a per-second limit allows.
    private var capacity: Double { max(1, rate / 10) }

    private mutating func refill(_ now: UInt64) {
        if last != 0, now > last { tokens = min(capacity, tokens + Double(now - last) / 1e9 * rate) }
        last = now
    }

    /// Takes a token if one is there.
    mutating func take(_ now: UInt64) -> Bool {
        refill(now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Nanoseconds until the next token.
    mutating func wait(_ now: UInt64) -> UInt64 {
        refill(now)
        return tokens >= 1 ? 0 : UInt64((1 - tokens) / rate * 1e9) + 1
    }

    /// An answer came; `lossShowsAfter` is how late a lost try is noticed now (``AnswerDelay``).
    ///
    /// Before the first loss the pace doubles every `growthPeriod` (a quarter second, or longer when losses
    /// show later), never past twice what the resolver answered in the last second: a limit is passed by
    /// about a second's worth before the losses show (against 50 answers a second, 72 of 370 questions
    /// dropped rather than 13-22). Doubling every second, a resolver that answers everything at once took
    /// 6.5 s for the 10,000 questions of 5,000 names (3.3 s now, 0.2 s unpaced), most of the difference
    /// between one origin and 5,000 (Scripts/bench-web-hosts). After a loss, `growth` a second, never more
    /// than a fifth above what was answered in the last second.
    mutating func answered(_ now: UInt64, lossShowsAfter: Double = 0) {
        windowAnswers += 1
        answerTimes.append(now)
        if firstAnswer == 0 { firstAnswer = now }
        // The bound holds growth back and never cuts: a pace above it stays until losses say otherwise.
        // When it cut, the pace followed the answers down whenever more than a sixth of the questions went
        // unanswered for a while (the retries after a burst of drops, the names that never answer): 10,000
        // questions at 200 a second fell to 50 a second at once and took 75 s rather than 64 (the
        // unanswered share was as high before, but the slow start ended more gently).
        if slowStart {
            let period = max(growthPeriod, lossShowsAfter)
            rate = max(rate, min(maximum, rate + 1 / period, max(initial, 2 * answersPerSecond(now))))
        } else {
            rate = max(rate, min(maximum, rate + growth / rate, max(initial, 1.2 * answersPerSecond(now))))
        }
        evaluate(now)
    }

    /// A try for `name` that went unanswered; one sent before the last cut says nothing about the pace
    /// since, and a name already lost in this window counts once.
    mutating func lost(_ now: UInt64, sentAt: UInt64, name: String) {
        guard sentAt >= lastCut, windowLostNames.insert(name.hashValue).inserted else { return }
        windowLosses += 1
        evaluate(now)
    }

    /// A question whose first try was lost (``lost(_:sentAt:name:)``) ended: answered by a later try, or
    /// `silent`, every try lost (a resolver past its limit rarely drops all three tries of one question).
    mutating func lossEnded(silent: Bool) {
        lostThenEnded += 1
        if silent { lostThenSilent += 1 }
        if lostThenEnded > 64 {
            lostThenEnded /= 2
            lostThenSilent /= 2
        }
    }

    /// The share of lost first tries expected to be names that never answer.
    private var silentShare: Double { lostThenEnded == 0 ? 0 : Double(lostThenSilent) / Double(lostThenEnded) }

    /// Answers in the last second, for the rate the resolver actually sustains.
    private mutating func answeredLastSecond(_ now: UInt64) -> Double {
        while answerHead < answerTimes.count, now - answerTimes[answerHead] > 1_000_000_000 { answerHead += 1 }
        if answerHead > 4096, answerHead * 2 > answerTimes.count {
            answerTimes.removeFirst(answerHead)
            answerHead = 0
        }
        return Double(answerTimes.count - answerHead)
    }

    /// What the resolver sustains: the answers of the last second, or a second's worth of those since the
    /// first answer when that was less than a second ago (the slow start may end within its first second,
    /// and the answers so far, taken for a second's, would cut the pace far below the limit found).
    private mutating func answersPerSecond(_ now: UInt64) -> Double {
        let seconds = min(1, max(growthPeriod, Double(now - min(now, firstAnswer)) / 1e9))
        return answeredLastSecond(now) / seconds
    }

    /// Cuts as soon as a quarter second holds, beside the names expected never to answer, at least 3 names
    /// lost and 5% of the questions (10% in the slow start), so a burst past the limit is answered within
    /// about one try's timeout, to 90% of the answers of the last second.
    private mutating func evaluate(_ now: UInt64) {
        if windowStart == 0 { windowStart = now }
        let elapsed = now - windowStart
        let asked = windowAnswers + windowLosses
        // At least 10 questions in the window: a few names that never answer, in a lull, say nothing about
        // the resolver's load (cutting on them once dropped a whole run to the minimum pace).
        let excess = Double(windowLosses) * (1 - silentShare)
        if elapsed >= 250_000_000, asked >= 10, excess >= 3, excess >= (slowStart ? 0.1 : 0.05) * Double(asked) {
            let sustained = answersPerSecond(now)
            // Out of the slow start, to what was answered (the pace may have doubled past it, or fallen with
            // the answers once the limit was passed); later cuts halve at most.
            rate = max(minimum, slowStart ? 0.9 * sustained : max(rate / 2, 0.9 * min(rate, sustained)))
            // Near a limit just found, grow by 5% of it a second (at most `increasePerSecond`): back above
            // it in about two seconds rather than at once.
            growth = max(5, min(increasePerSecond, 0.05 * sustained))
            tokens = min(tokens, 1)
            slowStart = false
            decreases += 1
            lastCut = now
        } else if elapsed < 1_000_000_000 {
            return
        }
        windowStart = now
        windowAnswers = 0
        windowLosses = 0
        windowLostNames.removeAll(keepingCapacity: true)
    }
}
