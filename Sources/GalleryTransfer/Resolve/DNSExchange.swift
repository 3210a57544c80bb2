import Foundation
import GallerySync
import GallerySystem
#if canImport(Glibc)
import Glibc
#endif

/// Sends questions to the nameservers over UDP and matches their answers, on one thread of its own
/// (`fg-dns`) that polls the sockets: at most `maxInFlight` questions outstanding on their first try (tries
/// after the first are not held back by it, only paced), at the pace of an AIMD
/// ``QueryRate``, each tried up to `tryTimeouts.count` times (the n-th try to the n-th server, round robin)
/// before it ends `.timedOut`. An answer to any earlier try of a question is accepted. An answer counts only
/// when it comes from one of the servers, with the question's 16-bit random id, name and type (RFC 5452);
/// a truncated one is asked again over TCP (RFC 7766). One UDP socket per address family, so the source
/// port is fixed for the exchange's life: fine for a resolver on this machine or a trusted network, weaker
/// against off-path spoofing than a port per question.
final class DNSExchange: Sendable {
    enum Answer: Sendable {
        case message(DNSMessage)
        case timedOut
    }

    typealias Limits = DNSPacing

    let servers: [DNSServer]
    private let state: ExchangeState

    init(servers: [DNSServer], limits: Limits = Limits()) throws(DNSSetupError) {
        precondition(!servers.isEmpty)
        self.servers = servers
        state = try ExchangeState(servers: servers, limits: limits)
        let state = state
        NamedThread.start("fg-dns") { state.run() }
    }

    deinit { state.stop() }

    /// Asks `type` for `name`: the answer, or `.timedOut` after every try.
    func ask(_ name: String, _ type: DNSMessage.RecordType) async -> Answer {
        await withHandOffContinuation { (c: HandOffContinuation<Answer, Never>) in
            state.submit(ExchangeState.Question(name: name, type: type, reply: c))
        }
    }

    /// Questions sent so far (UDP tries and TCP retries) and how often the rate was halved.
    var counters: (sent: Int, rateDecreases: Int) { state.counters.withLock { ($0.sent, $0.decreases) } }
}

/// The exchange's loop state: the queue from submitters (locked), everything else touched only by the
/// loop thread.
final class ExchangeState: @unchecked Sendable {
    struct Question {
        var name: String
        var type: DNSMessage.RecordType
        var reply: HandOffContinuation<DNSExchange.Answer, Never>
    }

    private struct Pending {
        var question: Question
        var ids: [UInt16]
        var tries: Int
        var sentAt: UInt64 = 0
        var deadline: UInt64
        /// Its first try was counted as lost for the pace, once: late past what ``AnswerDelay`` expects (it
        /// still waits for its answer) or at its timeout. How the question ends then tells the pace whether
        /// that was a drop.
        var firstTryLost = false
    }

    private let servers: [DNSServer]
    private let limits: DNSExchange.Limits
    private let sockets: DNSSockets
    private let incoming = Locked<(questions: [Question], stop: Bool)>(([], false))
    let counters = Locked<(sent: Int, decreases: Int)>((0, 0))
    // Loop-thread only:
    private var queue: [Question] = []
    private var queueHead = 0
    private var retries: [Pending] = []
    private var inFlight: [UInt16: Int] = [:]  // id -> index in `pending`
    private var pending: [Int: Pending] = [:]
    /// Pending questions on their first try: the bound `maxInFlight` applies to these. A name the resolver
    /// never answers keeps its question pending for all its tries (7 s); when those counted too, such names
    /// held most of the places and the other names waited behind them (20,000 URLs over 5,000 names, 3% of
    /// them never answered, a resolver answering everything else at once: 1,026 rows in the first 30 s,
    /// 3,710 with this; 17,932 with no silent name, the rest of that gap being the pace's, ``QueryRate``).
    private var firstTries = 0
    private var nextKey = 0
    private var rate: QueryRate
    private var delay: AnswerDelay
    private var random = SystemRandomNumberGenerator()

    init(servers: [DNSServer], limits: DNSExchange.Limits) throws(DNSSetupError) {
        self.servers = servers
        self.limits = limits
        rate = QueryRate(initial: limits.initialRate, minimum: limits.minimumRate, maximum: limits.maximumRate,
                         increasePerSecond: limits.increasePerSecond, growthPeriod: limits.lossSuspicionFloor)
        delay = AnswerDelay(floor: limits.lossSuspicionFloor)
        sockets = try DNSSockets(families: Set(servers.map(\.address.isIPv4)))
    }

    /// Queues `q` for the loop, waking it only when the queue was empty: the loop takes the whole queue after
    /// each wake-up, so one wake-up serves every question queued before it looks (a burst of names
    /// wakes it once rather than once a question).
    func submit(_ q: Question) {
        let first = incoming.withLock { s in
            s.questions.append(q)
            return s.questions.count == 1
        }
        if first { sockets.wake() }
    }

    func stop() {
        incoming.withLock { $0.stop = true }
        sockets.wake()
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    func run() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let (fresh, stop) = incoming.withLock { s in
                let taken = s.questions
                s.questions.removeAll(keepingCapacity: true)
                return (taken, s.stop)
            }
            if stop { break }
            queue.append(contentsOf: fresh)
            let now = Self.now()
            expire(now)
            send(now)
            let timeout = pollTimeout(Self.now())
            for (bytes, from) in sockets.wait(milliseconds: timeout, buffer: &buffer) { receive(bytes, from: from) }
        }
        // Whoever still waits gets an answer: no continuation is left hanging.
        for p in pending.values { p.question.reply.resume(returning: .timedOut) }
        for q in queue[queueHead...] { q.reply.resume(returning: .timedOut) }
        for p in retries { p.question.reply.resume(returning: .timedOut) }
        incoming.withLock { s in for q in s.questions { q.reply.resume(returning: .timedOut) } }
        sockets.close()
    }

    /// Tries past their timeout are asked again or end `.timedOut`; first tries older than ``AnswerDelay``
    /// expects count as lost for the pace once, at once, while still waiting for their answer. Only first
    /// tries count: a name the resolver never answers loses every try (six for A and AAAA), so 3% of such
    /// names would make about 8% of the tries lost, past the pace's 5% cut in every window, while a
    /// resolver past its limit drops first tries as much as later ones.
    private func expire(_ now: UInt64) {
        let suspectAfter = delay.suspectAfter.map { UInt64($0 * 1e9) }
        for (key, p) in pending {
            if p.deadline <= now {
                remove(key, p)
                var p = p
                if p.tries == 1, !p.firstTryLost {
                    rate.lost(now, sentAt: p.sentAt, name: p.question.name)
                    p.firstTryLost = true
                }
                if p.tries < limits.tryTimeouts.count {
                    retries.append(p)
                } else {
                    if p.firstTryLost { rate.lossEnded(silent: true) }
                    p.question.reply.resume(returning: .timedOut)
                }
            } else if p.tries == 1, !p.firstTryLost, let suspectAfter, now - p.sentAt >= suspectAfter {
                pending[key]?.firstTryLost = true
                rate.lost(now, sentAt: p.sentAt, name: p.question.name)
            }
        }
        counters.withLock { $0.decreases = rate.decreases }
    }

    /// A question is waiting to be asked again, or a new one is queued and the first tries leave it room.
    private var hasRoomToSend: Bool {
        !retries.isEmpty || queueHead < queue.count && firstTries < limits.maxInFlight
    }

    /// A question leaves `pending` (answered, or its try timed out): its ids are freed, and its place
    /// among the first tries when it was on its first.
    private func remove(_ key: Int, _ p: Pending) {
        pending[key] = nil
        for id in p.ids { inFlight[id] = nil }
        if p.tries == 1 { firstTries -= 1 }
    }

    private func send(_ now: UInt64) {
        while hasRoomToSend, rate.take(now) {
            var p: Pending
            if !retries.isEmpty {
                p = retries.removeFirst()
            } else {
                p = Pending(question: queue[queueHead], ids: [], tries: 0, deadline: 0)
                queueHead += 1
                if queueHead > 1024, queueHead * 2 > queue.count {
                    queue.removeFirst(queueHead)
                    queueHead = 0
                }
            }
            var id = UInt16.random(in: 0...UInt16.max, using: &random)
            while inFlight[id] != nil { id &+= 1 }
            let server = servers[p.tries % servers.count]
            p.tries += 1
            if p.tries == 1 { firstTries += 1 }
            p.ids.append(id)
            // ±25% jitter: retries of questions a rate-limited resolver dropped at the end of its one-second
            // window would otherwise land at the same point of the next window, and be dropped again.
            let timeout = limits.tryTimeouts[p.tries - 1] * Double.random(in: 0.75...1.25, using: &random)
            p.sentAt = now
            p.deadline = now + UInt64(timeout * 1e9)
            let key = nextKey
            nextKey += 1
            // A question that stays pending over retries keeps all its ids, so a late answer still counts.
            for old in p.ids { inFlight[old] = key }
            pending[key] = p
            let query = DNSMessage(id: id, questionName: p.question.name, questionType: p.question.type.rawValue)
            sockets.send(query.encoded(), to: server)
            counters.withLock { $0.sent += 1 }
        }
    }

    private func pollTimeout(_ now: UInt64) -> Int32 {
        var next = UInt64.max
        let suspectAfter = delay.suspectAfter.map { UInt64($0 * 1e9) }
        for p in pending.values {
            next = min(next, p.deadline)
            if p.tries == 1, !p.firstTryLost, let suspectAfter { next = min(next, p.sentAt + suspectAfter) }
        }
        if hasRoomToSend {
            next = min(next, now + rate.wait(now))
        }
        guard next != .max else { return 1000 }
        return Int32(min(1000, max(0, (next > now ? next - now : 0) / 1_000_000 + 1)))
    }

    private func receive(_ bytes: [UInt8], from: DNSServer?) {
        guard let message = DNSMessage(decoding: bytes), message.isResponse, let key = inFlight[message.id],
              let p = pending[key] else { return }
        // The server asked for one of this question's tries, and the question itself, or it is not our answer.
        guard let from, servers.contains(from), message.questionName == p.question.name.lowercased(),
              message.questionType == p.question.type.rawValue else { return }
        remove(key, p)
        let now = Self.now()
        if p.ids.count == 1 { delay.answered(after: Double(now - p.sentAt) / 1e9) }
        rate.answered(now, lossShowsAfter: delay.suspectAfter ?? 0)
        if p.firstTryLost, p.tries > 1 { rate.lossEnded(silent: false) }
        if message.truncated {
            counters.withLock { $0.sent += 1 }
            let question = p.question
            let server = from
            NamedThread.start("fg-dns-tcp") {
                let answer = DNSSockets.askOverTCP(question.name, question.type, server: server)
                question.reply.resume(returning: answer.map(DNSExchange.Answer.message) ?? .timedOut)
            }
            return
        }
        p.question.reply.resume(returning: .message(message))
    }
}
