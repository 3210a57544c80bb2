import Dispatch
import Foundation
import Synchronization

/// Runs a program (the built `fetch-gallery`, `curl`, ...) with arguments, extra environment and
/// a timeout, captures its output, and lets a test signal it at a chosen moment, e.g. SIGKILL
/// once the output shows a download is under way:
///
/// ```swift
/// let runner = try ProcessRunner(binary, ["download", url]) { output, runner in
///     if runner.stdoutText.contains("25%") { runner.send(SIGKILL) }
/// }
/// let result = runner.wait(timeout: 30)
/// ```
public final class ProcessRunner: Sendable {
    /// A chunk the child wrote, as it arrived.
    public enum Output: Sendable {
        case stdout(Data)
        case stderr(Data)
    }

    public typealias OutputHandler = @Sendable (_ output: Output, _ runner: ProcessRunner) -> Void

    private struct Captured {
        var stdout = Data()
        var stderr = Data()
        var timedOut = false
    }

    // Foundation's Process is not Sendable; it is only touched under this lock.
    private let process: Mutex<Process>
    private let captured = Mutex(Captured())
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
        let child = Process()
        child.executableURL = URL(fileURLWithPath: path)
        child.arguments = arguments
        child.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let currentDirectory { child.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        child.standardOutput = stdoutPipe
        child.standardError = stderrPipe
        child.standardInput = FileHandle.nullDevice
        let exited = self.exited
        child.terminationHandler = { _ in exited.signal() }
        do {
            try child.run()
        } catch {
            throw .launchFailed(executable: path, reason: "\(error)")
        }
        pid = child.processIdentifier
        process = Mutex(child)
        startReader(stdoutPipe.fileHandleForReading, isStdout: true, onOutput: onOutput)
        startReader(stderrPipe.fileHandleForReading, isStdout: false, onOutput: onOutput)
    }

    /// Runs to completion and returns the result (killed after `timeout` seconds).
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = [:],
        currentDirectory: String? = nil, timeout: Double = 60
    ) throws(TestSupportError) -> ProcessResult {
        try ProcessRunner(executable, arguments, environment: environment, currentDirectory: currentDirectory)
            .wait(timeout: timeout)
    }

    /// Sends a signal (SIGINT, SIGTERM, SIGKILL, ...) if the child is still running.
    public func send(_ signal: Int32) {
        process.withLock { child in
            if child.isRunning { kill(child.processIdentifier, signal) }
        }
    }

    /// Everything written to stdout so far.
    public var stdoutText: String { captured.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    /// Everything written to stderr so far.
    public var stderrText: String { captured.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// Waits for the child to exit, SIGKILLing it after `timeout` seconds, then for its output
    /// to be drained.
    public func wait(timeout: Double = 60) -> ProcessResult {
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            captured.withLock { $0.timedOut = true }
            send(SIGKILL)
            exited.wait()
        }
        exited.signal()  // let a second wait() return at once
        // A grandchild could hold the pipes open forever; do not let that hang the test.
        _ = readers.wait(timeout: .now() + 5)
        let (status, reason) = process.withLock { ($0.terminationStatus, $0.terminationReason) }
        return captured.withLock { output in
            ProcessResult(
                status: status, signal: reason == .uncaughtSignal ? status : nil,
                stdout: output.stdout, stderr: output.stderr, timedOut: output.timedOut,
                duration: Date().timeIntervalSince(started))
        }
    }

    private func startReader(_ handle: FileHandle, isStdout: Bool, onOutput: OutputHandler?) {
        readers.enter()
        let thread = Thread { [self] in
            defer { readers.leave() }
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                captured.withLock {
                    if isStdout { $0.stdout += chunk } else { $0.stderr += chunk }
                }
                onOutput?(isStdout ? .stdout(chunk) : .stderr(chunk), self)
            }
        }
        thread.start()
    }

    private static func resolve(_ executable: String) throws(TestSupportError) -> String {
        if executable.contains("/") { return executable }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw .launchFailed(executable: executable, reason: "not found in PATH \(path)")
    }
}
