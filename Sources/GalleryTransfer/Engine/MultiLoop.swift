import CCurl
import Foundation
import GallerySync
import Synchronization

/// A libcurl multi handle and the thread that drives it with `curl_multi_poll` (the engine runs one or
/// more: see ``Lane``).
///
/// Other threads only append to `pending` under the mutex and call `curl_multi_wakeup` (documented as
/// thread-safe); every other libcurl call on the multi and share handles happens on the loop thread.
final class MultiLoop: Sendable {
    private struct State {
        var pending: [CurlTransfer] = []
        var stopping = false
    }

    /// The C handles, only dereferenced on the loop thread (wakeup aside).
    /// `@unchecked Sendable`: raw pointers, guarded by the single-thread rule above rather than a lock.
    private struct Handles: @unchecked Sendable {
        let multi: UnsafeMutableRawPointer
    }

    private let state = Locked(State())
    private let handles: Handles
    private let submittedCount = Atomic<Int>(0)

    /// Transfers handed to this loop so far.
    var submitted: Int { submittedCount.load(ordering: .relaxed) }

    /// Starts the loop's thread, named `name` (at most 15 bytes).
    init(maxConnections: Int, name: String) {
        _ = CurlRuntime.initialized
        let multi = curl_multi_init()!
        // libcurl's default idle-connection cache is 4 x the handles currently added, so it shrinks whenever
        // the batch momentarily has few transfers and closes kept-alive connections; a fixed size keeps them.
        // The limit holds for each share's cache (``CurlShares``): libcurl compares a share's idle connections
        // with its multi handle's limit.
        _ = fg_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxConnections)
        // Several streams over one connection where the server offers HTTP/2.
        _ = fg_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        handles = Handles(multi: multi)
        NamedThread.start(name) { [self] in run() }
    }

    /// Queues a configured transfer; its continuation is resumed on the loop thread when it ends.
    func submit(_ transfer: CurlTransfer) {
        submittedCount.add(1, ordering: .relaxed)
        let accepted: Bool, wake: Bool
        (accepted, wake) = state.withLock { s in
            if s.stopping { return (false, false) }
            s.pending.append(transfer)
            // Only the first of a queue wakes the loop: a non-empty queue means an earlier submitter's wakeup
            // is still to come or unconsumed, and the loop takes the whole queue at once (one wakeup write and
            // one poll return less per transfer when many are submitted together).
            return (true, s.pending.count == 1)
        }
        if wake {
            curl_multi_wakeup(handles.multi)
        } else if !accepted {
            transfer.finish(CURLE_ABORTED_BY_CALLBACK, overrideReason: .engineStopped)
        }
    }

    /// Wakes a sleeping poll so a cancellation flag is seen promptly.
    func wakeup() { curl_multi_wakeup(handles.multi) }

    /// Stops the loop: running and queued transfers end with `.engineStopped`.
    func stop() {
        let already = state.withLock { s in
            defer { s.stopping = true }
            return s.stopping
        }
        if !already { curl_multi_wakeup(handles.multi) }
    }

    private func run() {
        let multi = handles.multi
        // Each transfer libcurl runs, with the share it was given.
        var active: [UnsafeMutableRawPointer: (transfer: CurlTransfer, share: CurlShares.Share)] = [:]
        // The DNS and connection caches, shared by the loop's transfers (``CurlShares``). No lock callbacks are
        // set because only the loop thread uses them; easy handles are detached from their share (on this
        // thread) before they leave.
        var shares = CurlShares(originsPerShare: Self.originsPerShare)
        // Detaching from the share here keeps every share access on this thread, even when the easy handle
        // is later freed by another thread.
        func detach(_ raw: UnsafeMutableRawPointer, from share: CurlShares.Share) {
            _ = fg_easy_setopt_share(raw, nil)
            shares.release(share)
        }
        while true {
            let (incoming, stopping) = state.withLock { s in
                defer { s.pending = [] }
                return (s.pending, s.stopping)
            }
            if stopping {
                for t in incoming { t.finish(CURLE_ABORTED_BY_CALLBACK, overrideReason: .engineStopped) }
                for (raw, entry) in active {
                    curl_multi_remove_handle(multi, raw)
                    detach(raw, from: entry.share)
                    entry.transfer.finish(CURLE_ABORTED_BY_CALLBACK, overrideReason: .engineStopped)
                }
                break
            }
            for t in incoming {
                let share = shares.take(for: t.spec.url)
                if (try? t.easy.set(share: share)) == nil || curl_multi_add_handle(multi, t.easy.raw) != CURLM_OK {
                    detach(t.easy.raw, from: share)
                    t.finish(CURLE_FAILED_INIT)
                } else {
                    active[t.easy.raw] = (t, share)
                }
            }
            // A cancelled task's transfer ends now, not at libcurl's next progress callback (which an idle,
            // stalled transfer gets only about once a second).
            for (raw, entry) in active where entry.transfer.cancelled.load(ordering: .relaxed) {
                curl_multi_remove_handle(multi, raw)
                active.removeValue(forKey: raw)
                detach(raw, from: entry.share)
                entry.transfer.finish(CURLE_ABORTED_BY_CALLBACK, overrideReason: .cancelled)
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let msg = curl_multi_info_read(multi, &queued) {
                guard msg.pointee.msg == CURLMSG_DONE, let raw = msg.pointee.easy_handle else { continue }
                let code = msg.pointee.data.result
                curl_multi_remove_handle(multi, raw)
                if let entry = active.removeValue(forKey: raw) {
                    detach(raw, from: entry.share)
                    entry.transfer.finish(code)
                }
            }
            // Sleeps until socket activity, libcurl's next timer, a wakeup, or 250 ms at most (so the
            // progress callbacks, which carry cancellation and our low-speed check, run even when idle).
            curl_multi_poll(multi, nil, 0, active.isEmpty ? 1000 : 250, nil)
        }
        curl_multi_cleanup(multi)
        shares.freeAll()
    }

    /// Origins given one share before the next gets a fresh one: libcurl's walks of its caches stay short
    /// (``CurlShares``), and a share turns over about once every 256 hosts.
    static let originsPerShare = 256
}
