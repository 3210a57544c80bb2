import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Debian's `chromedriver` on a free port of 127.0.0.1, started for a test and stopped with it. It
/// starts `chromium` for each ``BrowserSession``. Startup is bounded: a driver that exits or does not
/// answer `/status` within `startTimeout` seconds is an error carrying its output, never a hang.
public final class ChromeDriver: Sendable {
    /// The driver's base URL, e.g. `http://127.0.0.1:41234`.
    public let baseURL: URL
    private let process: ProcessRunner
    let client: WebDriverHTTP

    /// Starts chromedriver and waits until it is ready.
    public init(startTimeout: Double = 20) async throws {
        guard (try? ProcessRunner.resolve("chromedriver")) != nil else { throw BrowserError.missing(executable: "chromedriver") }
        guard FileManager.default.isExecutableFile(atPath: Self.chromiumPath) else {
            throw BrowserError.missing(executable: Self.chromiumPath)
        }
        let port = try Socket.freeLoopbackPort()
        process = try ProcessRunner("chromedriver", ["--port=\(port)", "--allowed-ips=127.0.0.1"])
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        client = WebDriverHTTP(port: port, timeout: 60)
        let deadline = Date().addingTimeInterval(startTimeout)
        var last = "no answer"
        while true {
            if process.hasExited {
                throw BrowserError.driverDidNotStart(reason: "it exited", output: process.stdoutText + process.stderrText)
            }
            do {
                let status = try await client.send("GET", "/status", timeout: 2) as? [String: Any]
                if status?["ready"] as? Bool == true { return }
                last = "not ready: \(String(describing: status))"
            } catch {
                last = String(describing: error)
            }
            if Date() > deadline {
                stop()
                throw BrowserError.driverDidNotStart(reason: "no ready answer on /status within \(startTimeout) s (last: \(last))",
                                                     output: process.stdoutText + process.stderrText)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    deinit { stop() }

    /// Stops the driver and every browser it started (its process group).
    public func stop() {
        guard !process.hasExited else { return }
        process.sendToGroup(SIGTERM)
        _ = process.wait(timeout: 5)
    }

    /// Debian installs the browser here; the driver is told so explicitly.
    public static let chromiumPath = "/usr/bin/chromium"
}
