import Foundation
import GalleryKit
import GallerySync

/// One JSON object per line on stdout: `file` events as files finish, `progress` once a second, `done` at the end.
final class JSONProgress: ProgressRenderer {
    private let lastPrint = Locked<Double>(0)
    /// Lines from several tasks must not interleave; once `done` is written nothing follows it (a tick
    /// already under way when the ticker was cancelled printed `progress` after `done` once).
    private let output = Locked(false)

    func tick(_ state: ProgressState) {
        let now = Date().timeIntervalSinceReferenceDate
        let due = lastPrint.withLock { last in
            guard now - last >= 1 else { return false }
            last = now
            return true
        }
        if due { emit(event("progress", state)) }
    }

    func fileFinished(url: String, path: String, bytes: Int64, skipped: Bool, error: TransferError?) {
        var object: [String: Any] = ["event": "file", "url": url, "path": path, "ok": error == nil, "bytes": bytes]
        if skipped { object["skipped"] = true }
        if let error {
            object["error"] = error.reasonText
            object["attempts"] = error.attempts
            if let status = error.status { object["status"] = status }
        }
        emit(object)
    }

    func event(_ name: String, _ fields: [String: any Sendable]) {
        var object: [String: Any] = ["event": name]
        for (key, value) in fields { object[key] = value }
        emit(object)
    }

    func finish(_ state: ProgressState) { emit(event("done", state), last: true) }

    private func event(_ name: String, _ s: ProgressState) -> [String: Any] {
        var object: [String: Any] = [
         "event": name, "\(s.unit)_total": s.totalFiles, "\(s.unit)_done": s.done, "failed": s.failed,
         "skipped": s.skipped, "active": s.snapshot.active, "bytes": s.snapshot.bytesReceived,
         "bytes_resumed": s.snapshot.bytesResumed, "retries": s.snapshot.retries,
         "elapsed": (s.elapsed * 1000).rounded() / 1000, "rate": s.rate.rounded()]
        if let pages = s.pages {
            object["pages_done"] = pages.done
            if let total = pages.total { object["pages_total"] = total }
        }
        return object
    }

    private func emit(_ object: [String: Any], last: Bool = false) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        output.withLock { done in
            guard !done else { return }
            FileHandle.standardOutput.write(data + Data("\n".utf8))
            done = last
        }
    }
}
