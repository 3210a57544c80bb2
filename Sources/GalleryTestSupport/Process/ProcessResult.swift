import Foundation

/// How a child process ended, with everything it printed.
public struct ProcessResult: Sendable {
    /// The exit code, or the signal number when `signal` is set.
    public let status: Int32
    /// The signal that ended the process, if it did not exit on its own.
    public let signal: Int32?
    public let stdout: Data
    public let stderr: Data
    /// True when the runner killed it because it outlived its timeout.
    public let timedOut: Bool
    /// Wall-clock seconds from launch to exit.
    public let duration: Double

    /// The exit code for a normal exit, nil when a signal ended it.
    public var exitCode: Int32? { signal == nil ? status : nil }
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}
