import Foundation
import GallerySync

/// For logs and pipes: a plain summary line every few seconds and one at the end, no control characters.
final class PlainProgress: ProgressRenderer {
    private let lastPrint = Locked<Double>(Date().timeIntervalSinceReferenceDate)
    let interval: Double

    init(interval: Double = 3) { self.interval = interval }

    func tick(_ state: ProgressState) {
        let now = Date().timeIntervalSinceReferenceDate
        let due = lastPrint.withLock { last in
            guard now - last >= interval else { return false }
            last = now
            return true
        }
        if due { StandardError.write("progress: " + Format.summary(state) + "\n") }
    }

    func finish(_ state: ProgressState) {
        StandardError.write("done: " + Format.summary(state) + " in " + Format.duration(state.elapsed) + "\n")
    }
}
