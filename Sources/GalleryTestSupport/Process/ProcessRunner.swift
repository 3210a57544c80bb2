import Dispatch
import Foundation
import GallerySync
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program (the built `fetch-gallery`, `curl`, nginx, ...) with arguments, extra
/// environment and a timeout, captures its output, and lets a test signal it at a chosen
/// moment, e.g. SIGKILL once the output shows a download is under way:
///
/// ```swift
/// let runner = try ProcessRunner(binary, ["download", url]) { output, runner in
///     if runner.stdoutText.contains("25%") { runner.send(SIGKILL) }
/// }
/// let result = runner.wait(timeout: 30)
/// ```
///
/// The child starts with no blocked signals (see `Spawn`), stdin on /dev/null, as the leader of
/// its own process group; whatever of that group outlives it is killed by `wait`.
public final class ProcessRunner: Sendable {
    /// A chunk the child wrote, as it arrived.
    public enum Output: Sendable {
        case stdout(Data)
        case stderr(Data)
    }

    public typealias OutputHandler = @Sendable (_ output: Output, _ runner: ProcessRunner) -> Void

    private struct State {
        var stdout = Data()
        var stderr = Data()
        var timedOut = false
        /// Set once the child is reaped; from then on its pid may be reused, so no more signals.
        var exit: (status: Int32, signal: Int32?)?
    }

    private let state = Locked(State())
    private let exited = DispatchSemaphore(value: 0)
    private let readers = DispatchGroup()
    private let started = Date()
    /// The child's process id.
    public let pid: Int32

    /// Launches `executable` (a path, or a name looked up in PATH). `environment` is added to
    /// this process's environment; `onOutput` runs on a reader thread for every chunk.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        currentDirectory: String? = nil, onOutput: OutputHandler? = nil
    ) throws(TestSupportError) {
        let path = try Self.resolve(executable)
        let child = try Spawn.start(
            path: path, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            currentDirectory: currentDirectory)
        pid = child.pid
        startReader(child.stdoutFD, isStdout: true, onOutput: onOutput)
        startReader(child.stderrFD, isStdout: false, onOutput: onOutput)
        let reaper = Thread { [self] in
            let exit = Spawn.wait(pid: pid)
            state.withLock { $0.exit = exit }
            exited.signal()
        }
        reaper.start()
    }

    /// Runs to completion and returns the result (killed after `timeout` seconds).
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        currentDirectory: String? = nil, timeout: Double = 60
    ) throws(TestSupportError) -> ProcessResult {
        try ProcessRunner(executable, arguments, environment: environment, currentDirectory: currentDirectory)
            .wait(timeout: timeout)
    }

    /// Sends a signal (SIGINT, SIGTERM, SIGKILL, ...) if the child has not exited yet.
    public func send(_ signal: Int32) {
        state.withLock { state in
            if state.exit == nil { kill(pid, signal) }
        }
    }

    /// Sends a signal to the child's whole process group (it is started as a group leader),
    /// reaching anything it forked.
    public func sendToGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    /// Whether the child has already exited.
    public var hasExited: Bool { state.withLock { $0.exit != nil } }

    /// Everything written to stdout so far.
    public var stdoutText: String { state.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    /// Everything written to stderr so far.
    public var stderrText: String { state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// Waits for the child to exit, SIGKILLing it after `timeout` seconds, then for its output
    /// to be drained. Can be called again; later calls return at once.
    public func wait(timeout: Double = 60) -> ProcessResult {
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            state.withLock { $0.timedOut = true }
            sendToGroup(SIGKILL)
            exited.wait()
        }
        exited.signal()  // let a later wait() return at once
        // Something it forked may still hold the pipes open: end the group rather than hang.
        if readers.wait(timeout: .now() + 0.5) == .timedOut {
            sendToGroup(SIGKILL)
            _ = readers.wait(timeout: .now() + 5)
        }
        return state.withLock { state in
            let exit = state.exit ?? (-1, nil)
            return ProcessResult(
                status: exit.status, signal: exit.signal, stdout: state.stdout, stderr: state.stderr,
                timedOut: state.timedOut, duration: Date().timeIntervalSince(started))
        }
    }

    private func startReader(_ fd: Int32, isStdout: Bool, onOutput: OutputHandler?) {
        readers.enter()
        let thread = Thread { [self] in
            defer {
                close(fd)
                readers.leave()
            }
            while true {
                let chunk = Socket.receiveFile(fd)
                if chunk.isEmpty { return }
                let data = Data(chunk)
                state.withLock {
                    if isStdout { $0.stdout += data } else { $0.stderr += data }
                }
                onOutput?(isStdout ? .stdout(data) : .stderr(data), self)
            }
        }
        thread.start()
    }

    static func resolve(_ executable: String) throws(TestSupportError) -> String {
        if executable.contains("/") { return executable }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw .launchFailed(executable: executable, reason: "not found in PATH \(path)")
    }
}
