import Foundation
import GalleryKit
import GallerySync

/// The system's resolver found dead in the middle of a command (it never answered, and the check that
/// followed got no answer either). Once a run is under way the alarm stops it through the run's own stop,
/// so the photos and rows that finished are written as after Ctrl-C, and the command then exits 3 naming
/// the resolver. Before a run exists there is nothing to keep: the command exits 3 at once.
final class ResolverAlarm: Sendable {
    private let state = Locked<(error: DNSSetupError?, stop: (@Sendable () -> Void)?)>((nil, nil))

    /// Called by the resolver (on a background task).
    func raise(_ error: DNSSetupError) {
        let stop = state.withLock { s -> (@Sendable () -> Void)? in
            if s.error == nil { s.error = error }
            return s.stop
        }
        guard let stop else {
            StandardError.line("error: \(error.description)")
            Foundation.exit(GalleryOutcome.unreadable.exitStatus)
        }
        StandardError.line("\nStopping: \(error.description) (keeping what finished)")
        stop()
    }

    /// From now on a dead resolver calls `stop` instead of exiting.
    func arm(_ stop: @escaping @Sendable () -> Void) { state.withLock { $0.stop = stop } }

    /// The failure to end the command with once its run returned, when the resolver stopped it.
    var failure: GalleryFailure? {
        state.withLock { $0.error }.map { GalleryFailure(.unreadable, $0.description) }
    }
}
