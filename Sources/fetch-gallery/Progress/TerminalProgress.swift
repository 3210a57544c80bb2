import Foundation
import GallerySync

/// One live line on a terminal (stderr), redrawn at most 10 times a second and cleared at the end.
final class TerminalProgress: ProgressRenderer {
    /// When the line was last drawn, and whether it was cleared for good. Drawing happens under the lock,
    /// so a tick that was already running when the command finished cannot redraw after the clear.
    private let line = Locked<(lastDraw: Double, finished: Bool)>((0, false))

    func tick(_ state: ProgressState) {
        let now = Date().timeIntervalSinceReferenceDate
        line.withLock { line in
            guard !line.finished, now - line.lastDraw >= 0.1 else { return }
            line.lastDraw = now
            // \r + "erase line" redraws in place; the width is capped so the line never wraps.
            var text = Format.summary(state)
            if text.count > 100 { text = String(text.prefix(100)) }
            StandardError.write("\r\u{1B}[2K" + text)
        }
    }

    func finish(_ state: ProgressState) {
        line.withLock { line in
            line.finished = true
            StandardError.write("\r\u{1B}[2K")
        }
    }
}
