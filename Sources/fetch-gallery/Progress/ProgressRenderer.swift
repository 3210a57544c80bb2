import Foundation
import GalleryKit

/// What a progress display shows at one instant.
struct ProgressState: Sendable {
    var totalFiles: Int
    /// Files found complete on disk before this run (counted as done).
    var skipped: Int
    var snapshot: AggregateProgress.Snapshot
    var elapsed: Double
    /// What is counted: "files" for downloads, "photos" for a gallery run.
    var unit = "files"
    /// Listing pages read and expected, for a gallery run.
    var pages: (done: Int, total: Int?)?
    /// Items finished this run (done or failed) when they are not simply transfers.
    var finishedItems: Int?
    /// Items failed when they are not simply transfers.
    var failedItems: Int?

    var finished: Int { finishedItems ?? snapshot.finished }
    var failed: Int { failedItems ?? snapshot.failed }
    var done: Int { skipped + finished }
    var rate: Double { elapsed > 0 ? Double(snapshot.bytesReceived) / elapsed : 0 }

    /// Seconds left, from the completion rate of this run; nil until something finished.
    var eta: Double? {
        guard finished > 0, elapsed > 0 else { return nil }
        return Double(totalFiles - done) * elapsed / Double(finished)
    }
}

/// One way of showing progress. The command calls `tick` about 10 times a second; each renderer decides how
/// often it actually prints. `finish` ends the display (clearing a live line).
protocol ProgressRenderer: Sendable {
    func tick(_ state: ProgressState)
    func fileFinished(url: String, path: String, bytes: Int64, skipped: Bool, error: TransferError?)
    /// A gallery event (page read, photo done or failed) for renderers that log each one.
    func event(_ name: String, _ fields: [String: any Sendable])
    func finish(_ state: ProgressState)
}

extension ProgressRenderer {
    func fileFinished(url: String, path: String, bytes: Int64, skipped: Bool, error: TransferError?) {}
    func event(_ name: String, _ fields: [String: any Sendable]) {}
}

/// The display modes of `--progress`.
enum ProgressMode: String, CaseIterable, Sendable {
    /// A live line on a terminal, plain summary lines otherwise.
    case auto
    case tty, plain, json, none

    func renderer(quiet: Bool) -> any ProgressRenderer {
        if quiet { return SilentProgress() }
        switch self {
        case .auto: return isatty(STDERR_FILENO) == 1 ? TerminalProgress() : PlainProgress()
        case .tty: return TerminalProgress()
        case .plain: return PlainProgress()
        case .json: return JSONProgress()
        case .none: return SilentProgress()
        }
    }
}

struct SilentProgress: ProgressRenderer {
    func tick(_ state: ProgressState) {}
    func finish(_ state: ProgressState) {}
}

/// Human formatting shared by the renderers.
enum Format {
    static func bytes(_ n: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var v = Double(n)
        var i = 0
        while v >= 1000 && i < units.count - 1 { v /= 1000; i += 1 }
        return i == 0 ? "\(n) B" : String(format: "%.1f %@", v, units[i])
    }

    static func duration(_ s: Double) -> String {
        let t = Int(s.rounded())
        return t >= 3600 ? String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60) : String(format: "%d:%02d", t / 60, t % 60)
    }

    /// "pages 2/5, 12/40 photos, 1 failed, 3.4 MB, 1.2 MB/s, ETA 0:05"
    static func summary(_ s: ProgressState) -> String {
        var parts: [String] = []
        if let pages = s.pages { parts.append("pages \(pages.done)/" + (pages.total.map(String.init) ?? "?")) }
        parts.append("\(s.done)/\(s.totalFiles) \(s.unit)")
        if s.failed > 0 { parts.append("\(s.failed) failed") }
        parts.append(bytes(s.snapshot.bytesReceived))
        parts.append(bytes(Int64(s.rate)) + "/s")
        if let eta = s.eta, s.done < s.totalFiles { parts.append("ETA " + duration(eta)) }
        return parts.joined(separator: ", ")
    }
}

