import Foundation
import GallerySync

/// One headless Chromium window driven through chromedriver: open a URL, run a script, press keys,
/// read the console and network logs, take a screenshot. Made for tests: every wait is bounded.
public final class BrowserSession: Sendable {
    /// The screen a session emulates.
    public struct Screen: Sendable, CustomStringConvertible {
        /// CSS pixels.
        public var width: Int
        public var height: Int
        /// Device pixels per CSS pixel.
        public var pixelRatio: Double
        /// A phone: touch events and a mobile viewport (Chromium's device emulation).
        public var mobile: Bool

        public init(width: Int, height: Int, pixelRatio: Double = 1, mobile: Bool = false) {
            self.width = width
            self.height = height
            self.pixelRatio = pixelRatio
            self.mobile = mobile
        }

        /// A desktop window, 1280 x 900 at 1x.
        public static let desktop = Screen(width: 1280, height: 900)
        /// A phone, 390 x 844 at 2x (an iPhone 12-15's CSS size), with touch.
        public static let phone = Screen(width: 390, height: 844, pixelRatio: 2, mobile: true)

        public var description: String { "\(width)x\(height)@\(pixelRatio)x" + (mobile ? " touch" : "") }
    }

    let http: WebDriverHTTP
    /// Every log entry read from chromedriver so far, by log type, and how far each reader has read:
    /// chromedriver hands an entry out once, so a test that reads the network log for its own check
    /// must not take from the error check what it read (see ``networkEvents(reader:)``).
    private let logBook = Locked(LogBook())
    private struct LogBook {
        var entries: [String: [(level: String, message: String)]] = [:]
        var read: [String: Int] = [:]
    }
    /// The WebDriver session id.
    public let id: String
    public let screen: Screen

    /// Opens a browser window on `driver`. `javaScript: false` turns scripts off (a page must work without).
    public init(driver: ChromeDriver, screen: Screen, javaScript: Bool = true) async throws {
        http = driver.client
        self.screen = screen
        var arguments = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                         "--allow-file-access-from-files", "--hide-scrollbars"]
        var options: [String: Any] = ["binary": ChromeDriver.chromiumPath]
        if screen.mobile {
            options["mobileEmulation"] = ["deviceMetrics": ["width": screen.width, "height": screen.height,
                                                            "pixelRatio": screen.pixelRatio, "touch": true, "mobile": true]]
            arguments.append("--window-size=\(screen.width),\(screen.height)")
        } else {
            arguments += ["--window-size=\(screen.width),\(screen.height)", "--force-device-scale-factor=\(screen.pixelRatio)"]
        }
        options["args"] = arguments
        if !javaScript { options["prefs"] = ["profile.managed_default_content_settings.javascript": 2] }
        let capabilities: [String: Any] = [
            "browserName": "chrome",
            "goog:chromeOptions": options,
            "goog:loggingPrefs": ["browser": "ALL", "performance": "ALL"],
            "pageLoadStrategy": "normal",
        ]
        let value = try await http.send("POST", "/session", ["capabilities": ["alwaysMatch": capabilities]], timeout: 60)
        guard let id = (value as? [String: Any])?["sessionId"] as? String else {
            throw BrowserError.transport(command: "POST /session", reason: "no sessionId in \(String(describing: value))")
        }
        self.id = id
        if !screen.mobile {
            // --window-size sizes the outer window; the viewport is what the pages see.
            let inner = try await execute("return [window.innerWidth, window.innerHeight]") as? [Int] ?? []
            if inner.count == 2, inner[0] != screen.width || inner[1] != screen.height {
                _ = try await command("POST", "/window/rect", ["width": 2 * screen.width - inner[0], "height": 2 * screen.height - inner[1]])
            }
        }
    }

    /// Closes the window (and its browser).
    public func close() async {
        _ = try? await http.send("DELETE", "/session/\(id)", timeout: 20)
    }

    func command(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
        try await http.send(method, "/session/\(id)" + path, body)
    }

    /// Opens `url` and waits for its load event (WebDriver's normal page load strategy).
    public func open(_ url: URL) async throws { _ = try await command("POST", "/url", ["url": url.absoluteString]) }

    /// The page's URL now.
    public func currentURL() async throws -> String { try await command("GET", "/url") as? String ?? "" }

    /// Runs `script` (a function body; `arguments[0]`... are `arguments`) and returns its JSON result.
    public func execute(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
        try await command("POST", "/execute/sync", ["script": script, "args": arguments])
    }

    /// Presses and releases `key` (a WebDriver key code, e.g. ``Key/right``) on the page.
    public func press(_ key: String) async throws {
        let actions: [String: Any] = ["actions": [[
            "type": "key", "id": "keyboard",
            "actions": [["type": "keyDown", "value": key], ["type": "keyUp", "value": key]],
        ]]]
        _ = try await command("POST", "/actions", actions)
        _ = try? await command("DELETE", "/actions")
    }

    /// A one-finger horizontal swipe from `fromX` to `toX` at height `y` (CSS pixels).
    public func swipe(fromX: Int, toX: Int, y: Int) async throws {
        let actions: [String: Any] = ["actions": [[
            "type": "pointer", "id": "finger", "parameters": ["pointerType": "touch"],
            "actions": [
                ["type": "pointerMove", "duration": 0, "x": fromX, "y": y],
                ["type": "pointerDown", "button": 0],
                ["type": "pointerMove", "duration": 150, "x": (fromX + toX) / 2, "y": y],
                ["type": "pointerMove", "duration": 150, "x": toX, "y": y],
                ["type": "pointerUp", "button": 0],
            ],
        ]]]
        _ = try await command("POST", "/actions", actions)
        _ = try? await command("DELETE", "/actions")
    }

    /// Waits until the page has loaded and every image in it has loaded or failed, so every `load` and
    /// `error` handler has had its turn; returns at once when a script opened an alert (which blocks
    /// every later script until it is closed). Throws after `seconds`.
    public func waitForImages(seconds: Double = 15) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        let settled = "return document.readyState === 'complete' && Array.from(document.images).every(i => i.complete)"
        while true {
            if await openAlertText() != nil { return }
            if (try? await execute(settled)) as? Bool == true {
                // One more turn of the page's event loop: an error event queued as the last image failed runs first.
                _ = try? await execute("return await new Promise(r => setTimeout(() => r(true), 0))")
                return
            }
            if Date() > deadline { throw BrowserError.timedOut(waitingFor: "the page's images", seconds: seconds) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits until the page's URL satisfies `condition` (navigation after a key or swipe).
    @discardableResult
    public func waitForURL(_ what: String, seconds: Double = 10, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let url = try await currentURL()
            if condition(url), try await execute("return document.readyState") as? String == "complete" { return url }
            if Date() > deadline { throw BrowserError.timedOut(waitingFor: "\(what) (at \(url))", seconds: seconds) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Console messages `reader` has not had yet: (level, message), e.g. ("SEVERE", "... Failed to load
    /// resource"). Each reader has its own place in the log: what one read, another still gets.
    public func consoleLog(reader: String = "test") async throws -> [(level: String, message: String)] {
        try await log("browser", reader: reader)
    }

    /// DevTools network events `reader` has not had yet, as (method, params) of the `performance` log;
    /// each reader has its own place in the log (a test's own reads leave ``PageCheck``'s error check
    /// every failed request).
    public func networkEvents(reader: String = "test") async throws -> [(method: String, params: [String: Any])] {
        try await log("performance", reader: reader).compactMap { entry in
            guard let object = try? JSONSerialization.jsonObject(with: Data(entry.message.utf8)) as? [String: Any],
                  let message = object["message"] as? [String: Any], let method = message["method"] as? String,
                  method.hasPrefix("Network.") else { return nil }
            return (method, message["params"] as? [String: Any] ?? [:])
        }
    }

    /// The entries of the log `type` that `reader` has not had: what chromedriver hands out now is kept
    /// for every reader.
    private func log(_ type: String, reader: String) async throws -> [(level: String, message: String)] {
        let fresh = (try await command("POST", "/se/log", ["type": type]) as? [[String: Any]] ?? []).map {
            ($0["level"] as? String ?? "", $0["message"] as? String ?? "")
        }
        return logBook.withLock { book in
            book.entries[type, default: []] += fresh
            let key = type + "\u{0}" + reader
            let all = book.entries[type] ?? []
            defer { book.read[key] = all.count }
            return Array(all[(book.read[key] ?? 0)...])
        }
    }

    /// A PNG of the viewport, written to `path`.
    public func screenshot(to path: String) async throws {
        guard let base64 = try await command("GET", "/screenshot") as? String, let png = Data(base64Encoded: base64) else {
            throw BrowserError.transport(command: "GET /screenshot", reason: "no base64 PNG")
        }
        try png.write(to: URL(fileURLWithPath: path))
    }

    /// The text of an open `alert()`, or nil when none is open.
    public func openAlertText() async -> String? {
        do { return try await command("GET", "/alert/text") as? String } catch { return nil }
    }

    /// WebDriver key codes (the W3C spec's table).
    public enum Key {
        public static let left = "\u{E012}"
        public static let up = "\u{E013}"
        public static let right = "\u{E014}"
        public static let escape = "\u{E00C}"
    }
}

extension BrowserSession {
    /// The first element matching a CSS selector (WebDriver's element reference).
    public func findElement(_ selector: String) async throws -> String {
        let value = try await command("POST", "/element", ["using": "css selector", "value": selector]) as? [String: Any]
        guard let id = value?.values.first as? String else {
            throw BrowserError.transport(command: "POST /element \(selector)", reason: "no element reference")
        }
        return id
    }

    /// Clicks an element found by ``findElement(_:)``.
    public func click(_ element: String) async throws { _ = try await command("POST", "/element/\(element)/click") }

    /// Whether an element is shown (WebDriver's own visibility test, which needs no page script).
    public func isDisplayed(_ element: String) async throws -> Bool {
        try await command("GET", "/element/\(element)/displayed") as? Bool ?? false
    }
}

extension BrowserSession {
    /// Makes the page see `prefers-color-scheme: dark` (or light), through the DevTools protocol.
    public func emulateColorScheme(_ scheme: String) async throws {
        _ = try await command("POST", "/goog/cdp/execute", [
            "cmd": "Emulation.setEmulatedMedia",
            "params": ["features": [["name": "prefers-color-scheme", "value": scheme]]],
        ])
    }

    /// WebDriver's Tab key code.
    public static let tabKey = "\u{E004}"
}
