import Foundation

/// What one attempt tells the retry loop.
enum AttemptStep<Value: Sendable>: Sendable {
    case done(Value)
    /// Failed; retried after backoff (or `Retry-After`) when the error is retryable and budget remains.
    case retry(TransferError, retryAfter: String?)
    /// The local state was wrong for the response (e.g. a resume the server could not honour): try again
    /// at once, without backoff.
    case again(TransferError)
}

extension TransferEngine {
    /// Runs attempts until one succeeds, the error is not retryable, attempts run out or the deadline
    /// (counted from the first admission, so queueing does not burn it) would pass.
    /// Every attempt holds an admission slot and starts in the host's next rate slot; backoff waits hold
    /// no slot. A rate-limited answer (429, or 403 saying so) is waited out (its Retry-After, at least the
    /// backoff) and pauses the host, without using up an attempt: only the deadline bounds those.
    func withRetries<Value: Sendable>(
        url: String, id: TransferID,
        _ attempt: (_ number: Int, _ remaining: Double, _ lane: Lane, _ metrics: inout TransferMetrics) async -> AttemptStep<Value>
    ) async throws(TransferError) -> (Value, TransferMetrics) {
        let host = Self.hostKey(url)
        let policy = configuration.retry
        var metrics = TransferMetrics()
        var started: Date?
        var number = 0
        var rateLimited = 0
        func fail(_ e: TransferError) -> TransferError {
            var e = e
            e.attempts = max(number, 1)
            metrics.attempts = number
            metrics.wallTime = started.map { Date().timeIntervalSince($0) } ?? 0
            observers.finish(TransferFinish(id: id, url: url, metrics: metrics, error: e))
            return e
        }
        // The name is resolved before the transfer queues for a slot: a slow answer holds no slot, and the
        // attempt then finds it in the resolver's cache.
        if let resolver = configuration.resolver, let parts = URLParts(url), let (name, _) = Self.hostAndPort(parts),
           Self.needsResolving(name) {
            _ = await resolver.resolve(name)
        }
        while true {
            if Task.isCancelled { throw fail(TransferError(url: url, reason: .cancelled)) }
            let slot = await gate.acquire(host: host)
            if started == nil {
                started = Date()
                observers.start(id, url)
            }
            let wait = pacer.reserve(host: host)
            if wait > 0 {
                do { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) } catch {
                    gate.release(host: host, slot: slot)
                    throw fail(TransferError(url: url, reason: .cancelled))
                }
            }
            number += 1
            let remaining = configuration.deadline - Date().timeIntervalSince(started!)
            guard remaining > 0.01 else {
                gate.release(host: host, slot: slot)
                throw fail(TransferError(url: url, reason: .timedOut))
            }
            let step = await attempt(number, remaining, lane(host: host, url: url, slot: slot), &metrics)
            gate.release(host: host, slot: slot)
            switch step {
            case .done(let value):
                metrics.attempts = number
                metrics.wallTime = Date().timeIntervalSince(started!)
                observers.finish(TransferFinish(id: id, url: url, metrics: metrics, error: nil))
                return (value, metrics)
            case .again(let error):
                if number >= policy.maxAttempts + 1 { throw fail(error) }
            case .retry(let error, let retryAfter):
                let limited = error.isRateLimit
                if limited { rateLimited += 1 }
                guard error.isRetryable, number - rateLimited < policy.maxAttempts else { throw fail(error) }
                var wait = policy.delay(afterAttempt: number, retryAfter: retryAfter)
                if limited {
                    // Never sooner than the backoff ceiling: a "Retry-After: 0" cannot make a storm.
                    wait = max(wait, min(policy.maxBackoff, policy.baseBackoff * pow(2, Double(rateLimited - 1))))
                }
                let left = configuration.deadline - Date().timeIntervalSince(started!)
                // Waiting past the deadline only to fail later helps no one.
                guard wait < left else { throw fail(error) }
                if limited { pacer.pause(host: host, seconds: wait) }
                var announced = error
                announced.attempts = number
                observers.retry(id, url, announced, wait)
                if wait > 0 {
                    do { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) } catch {
                        throw fail(TransferError(url: url, reason: .cancelled))
                    }
                }
            }
        }
    }

    /// The admission key: scheme-less "host:port", lower-cased.
    static func hostKey(_ url: String) -> String {
        URLParts(url)?.authority ?? url
    }
}
