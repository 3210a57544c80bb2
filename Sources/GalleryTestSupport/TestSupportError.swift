import Foundation

/// Every failure of the test-support layer, with enough context to read a failing test log
/// without re-running it.
public enum TestSupportError: Error, CustomStringConvertible, Sendable {
    /// A POSIX call failed; `operation` names the call and what it was for.
    case system(operation: String, errno: Int32)
    /// The nginx binary is not installed where the harness looks for it.
    case nginxMissing(path: String)
    /// nginx was started but never answered on its port; `log` is its error log.
    case nginxDidNotStart(port: Int, reason: String, log: String)
    /// A file the helpers expected in the corpus is absent or unreadable.
    case corpusFileMissing(path: String)
    /// A child process could not be launched.
    case launchFailed(executable: String, reason: String)

    public var description: String {
        switch self {
        case .system(let operation, let code):
            return "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .nginxMissing(let path):
            return "nginx not found at \(path); run Scripts/bootstrap (installs nginx-light)"
        case .nginxDidNotStart(let port, let reason, let log):
            return "nginx did not answer on 127.0.0.1:\(port): \(reason)\n--- error log ---\n\(log)"
        case .corpusFileMissing(let path):
            return "corpus file missing or unreadable: \(path) (the repository carries its corpus in Tests/Corpus)"
        case .launchFailed(let executable, let reason):
            return "could not launch \(executable): \(reason)"
        }
    }
}
