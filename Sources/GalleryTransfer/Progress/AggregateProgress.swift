import Foundation
import GallerySync

/// An observer that sums all transfers into one snapshot a progress bar can poll at its own rate
/// (polling is the throttle: events arrive as fast as the engine makes them, the display reads at 10 Hz).
public final class AggregateProgress: TransferObserver {
    /// Totals at one instant.
    public struct Snapshot: Sendable, Equatable {
        /// Transfers that succeeded.
        public var succeeded = 0
        /// Transfers that failed.
        public var failed = 0
        /// Transfers running now.
        public var active = 0
        /// Bytes received over the network this run (resumed prefixes excluded).
        public var bytesReceived: Int64 = 0
        /// Bytes found on disk and resumed from.
        public var bytesResumed: Int64 = 0
        /// Retries announced.
        public var retries = 0
        /// Transfers that ended, either way.
        public var finished: Int { succeeded + failed }
    }

    private struct State {
        var snapshot = Snapshot()
        /// Network bytes of running transfers, so a restart of an attempt is not double-counted.
        var running: [TransferID: (received: Int64, resumed: Int64)] = [:]
        var doneBytes: Int64 = 0
    }

    private let state = Locked(State())

    /// An aggregate with nothing counted yet.
    public init() {}

    /// The totals now, read atomically.
    public var snapshot: Snapshot {
        state.withLock { s in
            var snap = s.snapshot
            snap.active = s.running.count
            snap.bytesReceived = s.doneBytes + s.running.values.reduce(0) { $0 + max(0, $1.received - $1.resumed) }
            return snap
        }
    }

    /// Counts a started transfer.
    public func transferDidStart(id: TransferID, url: String) {
        state.withLock { $0.running[id] = (0, 0) }
    }

    /// Updates the bytes of a transfer.
    public func transferDidProgress(_ p: TransferProgress) {
        state.withLock { s in
            // An attempt that restarts from 0 drops the earlier attempt's bytes from the live figure; they
            // are still counted once the transfer finishes, from its metrics.
            s.running[p.id] = (p.received, p.resumedFrom)
        }
    }

    /// Counts a retry.
    public func transferWillRetry(id: TransferID, url: String, after error: TransferError, delay: Double) {
        state.withLock { $0.snapshot.retries += 1 }
    }

    /// Counts a finished transfer.
    public func transferDidFinish(_ f: TransferFinish) {
        state.withLock { s in
            s.running[f.id] = nil
            s.doneBytes += f.metrics.bytesReceived
            s.snapshot.bytesResumed += f.metrics.resumedFrom
            if f.error == nil { s.snapshot.succeeded += 1 } else { s.snapshot.failed += 1 }
        }
    }
}
