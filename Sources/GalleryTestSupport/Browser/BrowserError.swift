/// What went wrong driving the browser, with the detail a person needs to fix it.
public enum BrowserError: Error, CustomStringConvertible, Sendable {
    /// chromedriver or chromium is not installed.
    case missing(executable: String)
    /// chromedriver did not answer /status in time, or exited; its output is attached.
    case driverDidNotStart(reason: String, output: String)
    /// The HTTP exchange with chromedriver failed (connection, timeout, not JSON).
    case transport(command: String, reason: String)
    /// chromedriver answered a W3C WebDriver error.
    case webDriver(command: String, error: String, message: String)
    /// A condition waited for never came true.
    case timedOut(waitingFor: String, seconds: Double)

    public var description: String {
        switch self {
        case .missing(let executable):
            "\(executable) is not installed (Scripts/bootstrap installs chromium and chromium-driver)"
        case .driverDidNotStart(let reason, let output):
            "chromedriver did not start: \(reason)\n--- chromedriver output ---\n\(output)"
        case .transport(let command, let reason):
            "WebDriver \(command): \(reason)"
        case .webDriver(let command, let error, let message):
            "WebDriver \(command): \(error): \(message.prefix(2000))"
        case .timedOut(let what, let seconds):
            "timed out after \(seconds) s waiting for \(what)"
        }
    }
}
