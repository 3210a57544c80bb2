import Foundation
import Synchronization

/// One live line on a terminal (stderr), redrawn at most 10 times a second and cleared at the end.
final class TerminalProgress: ProgressRenderer {
    private let lastDraw = Mutex<Double>(0)

    func tick(_ state: ProgressState) {
        let now = Date().timeIntervalSinceReferenceDate
        let due = lastDraw.withLock { last in
            guard now - last >= 0.1 else { return false }
            last = now
            return true
        }
        guard due else { return }
        // \r + "erase line" redraws in place; the width is capped so the line never wraps.
        var line = Format.summary(state)
        if line.count > 100 { line = String(line.prefix(100)) }
        StandardError.write("\r\u{1B}[2K" + line)
    }

    func finish(_ state: ProgressState) {
        StandardError.write("\r\u{1B}[2K")
    }
}
