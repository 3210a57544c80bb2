/// Identifies one logical transfer (all of its attempts) in events.
public struct TransferID: Hashable, Sendable, CustomStringConvertible {
    /// The number, unique within one engine.
    public let rawValue: UInt64
    /// `#N`.
    public var description: String { "#\(rawValue)" }
}

/// Progress of one transfer: bytes held so far (including a resumed prefix), the total when known.
public struct TransferProgress: Sendable, Equatable {
    /// Which transfer.
    public var id: TransferID
    /// Its URL.
    public var url: String
    /// Bytes of the body we hold now: `resumedFrom` plus what this attempt received.
    public var received: Int64
    /// The full body size when the server declared it.
    public var expected: Int64?
    /// Bytes that were already on disk when this attempt started (0 when not resumed).
    public var resumedFrom: Int64
    /// The attempt, from 1.
    public var attempt: Int
}

/// The summary of a finished transfer: success or the error, with its metrics.
public struct TransferFinish: Sendable {
    /// Which transfer.
    public var id: TransferID
    /// Its URL.
    public var url: String
    /// Timings and byte counts over all attempts.
    public var metrics: TransferMetrics
    /// The error, nil on success.
    public var error: TransferError?
}

/// Receives transfer events. Every method has a no-op default, so an observer implements only what it needs.
/// Called from the engine's threads: implementations must be thread-safe and quick.
public protocol TransferObserver: Sendable {
    func transferDidStart(id: TransferID, url: String)
    func transferDidProgress(_ progress: TransferProgress)
    func transferWillRetry(id: TransferID, url: String, after error: TransferError, delay: Double)
    func transferDidFinish(_ finish: TransferFinish)
}

extension TransferObserver {
    /// Does nothing by default.
    public func transferDidStart(id: TransferID, url: String) {}
    /// Does nothing by default.
    public func transferDidProgress(_ progress: TransferProgress) {}
    /// Does nothing by default.
    public func transferWillRetry(id: TransferID, url: String, after error: TransferError, delay: Double) {}
    /// Does nothing by default.
    public func transferDidFinish(_ finish: TransferFinish) {}
}

/// Fans one event out to many observers.
struct ObserverFanout: Sendable {
    let observers: [any TransferObserver]
    /// Hosts whose transfers are not reported (``HostLimit/observed``).
    var unobserved: Set<String> = []
    var isEmpty: Bool { observers.isEmpty }

    private func told(_ url: String) -> [any TransferObserver] {
        unobserved.isEmpty || !unobserved.contains(TransferEngine.hostKey(url)) ? observers : []
    }

    func start(_ id: TransferID, _ url: String) { for o in told(url) { o.transferDidStart(id: id, url: url) } }
    func progress(_ p: TransferProgress) { for o in told(p.url) { o.transferDidProgress(p) } }
    func retry(_ id: TransferID, _ url: String, _ e: TransferError, _ d: Double) {
        for o in told(url) { o.transferWillRetry(id: id, url: url, after: e, delay: d) }
    }
    func finish(_ f: TransferFinish) { for o in told(f.url) { o.transferDidFinish(f) } }
}
