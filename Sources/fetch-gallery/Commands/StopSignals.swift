import Dispatch
import Foundation
import Synchronization

/// Waits for the first of some signals (SIGINT, SIGTERM) without killing the process, so a
/// command can shut down cleanly. The default actions are ignored from construction on.
final class StopSignals: Sendable {
    private struct State {
        var received: Int32?
        var waiter: CheckedContinuation<Int32, Never>?
    }

    private let state = Mutex(State())
    // DispatchSourceSignal is thread-safe but not marked Sendable; kept only to stay alive.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    init(_ signals: [Int32]) {
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            sources.append(DispatchSource.makeSignalSource(signal: number, queue: .global()))
        }
        self.sources = sources
        for (source, number) in zip(sources, signals) {
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
        }
    }

    private func deliver(_ number: Int32) {
        let waiter = state.withLock { state -> CheckedContinuation<Int32, Never>? in
            if state.received == nil { state.received = number }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: number)
    }

    /// The signal that arrived first (waits until one does).
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let received = state.withLock { state -> Int32? in
                if let received = state.received { return received }
                state.waiter = continuation
                return nil
            }
            if let received { continuation.resume(returning: received) }
        }
    }
}

/// Whole lines to stdout / stderr, unbuffered (stdout may be a pipe a script reads from).
enum Console {
    static func output(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
