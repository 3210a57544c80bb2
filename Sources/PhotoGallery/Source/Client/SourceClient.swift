import Foundation

/// The one way a photo source talks to its service: GET a URL, with the tool's User-Agent, obeying the
/// service's rate limits, every key redacted from what can be seen.
///
/// - A spent budget (``RateLimitState``) is waited out when the wait is at most ``Settings/maxWait``;
///   a longer one stops the source with ``SourceError/rateLimited(service:message:)`` naming when it resets.
/// - A 429 (or a 403 "rate limit exceeded") is asked again after the service's wait, up to
///   ``Settings/limitedRetries`` times: not a failure. Other transient faults (connection, 5xx) are the
///   engine's to retry, as for every transfer.
/// - Any other non-2xx answer is a ``SourceError/service(service:url:status:message:)``.
public actor SourceClient {
    /// How the client behaves.
    public struct Settings: Sendable {
        /// Sent as `User-Agent` on API requests (Wikimedia refuses generic library agents).
        public var userAgent: String
        /// The longest wait (seconds) for a rate limit before the source stops instead.
        public var maxWait: Double = 120
        /// How often one request is asked again after rate-limited answers.
        public var limitedRetries = 4
        /// The largest API answer accepted (a gzip bomb stops here).
        public var maxBodyBytes: Int64 = 16 << 20
        /// How often a request that failed in transfer (after the engine's own attempts) is made again,
        /// unless the failure would repeat (``SourceClient/mayAskAgain(_:)``).
        public var requestAttempts = 3

        /// Settings sending `userAgent`.
        public init(userAgent: String = SourceClient.defaultUserAgent) { self.userAgent = userAgent }
    }

    /// The wait after a limited answer that names no wait (Pexels' 429 carries no header), at most `maxWait`.
    public static let unknownWait: Double = 60

    /// `fetch-gallery/VERSION (+contact URL)`: names the tool, its version and where to reach its authors.
    public static var defaultUserAgent: String { TransferConfiguration.defaultUserAgent }

    let engine: TransferEngine
    /// Removes the keys from every message.
    public nonisolated let redactor: Redactor
    /// The settings.
    public nonisolated let settings: Settings
    private var states: [String: RateLimitState] = [:]
    /// The addresses (CURLINFO_PRIMARY_IP) answers came from, for the image address rule.
    public private(set) var addresses: Set<String> = []
    private let onWait: @Sendable (_ service: String, _ seconds: Double, _ reason: String) -> Void
    private let sleeper: @Sendable (Double) async throws -> Void

    /// A client sending requests through `engine`, never showing any of `secrets`.
    public init(engine: TransferEngine, settings: Settings = Settings(), secrets: [String] = [],
                onWait: @escaping @Sendable (String, Double, String) -> Void = { _, _, _ in },
                sleeper: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(for: .seconds($0)) }) {
        self.engine = engine
        self.settings = settings
        self.redactor = Redactor(secrets: secrets)
        self.onWait = onWait
        self.sleeper = sleeper
    }

    /// GETs `url` for `service` with `headers` (plus `User-Agent`); returns a 2xx answer.
    public func get(_ url: String, service: String, headers: [String: String] = [:]) async throws(SourceError) -> DataResponse {
        var limitedAnswers = 0
        while true {
            try await waitForBudget(service)
            var request = HTTPRequest(url: url)
            request.headers.set("Accept", "application/json")
            request.headers.set("User-Agent", settings.userAgent)
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.set(name, value) }
            request.maxBodyBytes = settings.maxBodyBytes
            request.returnsRateLimitedAnswers = true
            let response = try await send(request, service: service)
            if let address = response.metrics.lastAttempt.primaryIP, addresses.count < 64 { addresses.insert(address) }
            let headerFields = Dictionary(response.headers.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
            if (200..<300).contains(response.status) {
                states[service, default: RateLimitState()].note(success: headerFields)
                return response
            }
            let body = String(decoding: response.body.prefix(4096), as: UTF8.self)
            guard RateLimitState.isLimited(status: response.status, body: body) else {
                throw .service(service: service, url: redactor.redact(url), status: response.status,
                               message: redactor.redact(Self.summary(of: body)))
            }
            limitedAnswers += 1
            // A limited answer may still say the budget is spent (Unsplash's 403 carries X-Ratelimit-Remaining: 0).
            states[service, default: RateLimitState()].note(success: headerFields)
            let budgetWait = states[service]?.blockedUntil.map { max(0, $0.timeIntervalSinceNow) }
            let wait = RateLimitState.wait(afterLimited: headerFields, body: body) ?? budgetWait ?? min(Self.unknownWait, settings.maxWait)
            var why = "HTTP \(response.status) (rate limited)" + (Self.summary(of: body).isEmpty ? "" : ": " + redactor.redact(Self.summary(of: body)))
            if let reason = states[service]?.reason, budgetWait != nil { why += "; " + reason }
            guard limitedAnswers <= settings.limitedRetries else {
                throw .rateLimited(service: service, message: "\(why); still limited after \(limitedAnswers) waits. Everything done so far is kept: run the same command again later.")
            }
            try await pause(wait, service: service, why: why)
        }
    }

    /// `request` through the engine. The engine already retried what it retries; on top of that a request
    /// that failed for any reason but a 4xx or a refusal that cannot change (a body over the cap, a cut
    /// body, a 5xx after the engine's attempts: a gzip bomb served once) is made again with backoff, since
    /// a missing listing page costs all of its photos.
    private func send(_ request: HTTPRequest, service: String) async throws(SourceError) -> DataResponse {
        var attempt = 1
        while true {
            do { return try await engine.request(request).response() } catch {
                guard attempt < settings.requestAttempts, Self.mayAskAgain(error), !Task.isCancelled else {
                    throw .request(service: service, reason: redactor.redact(error.description))
                }
            }
            try? await Task.sleep(for: .milliseconds(250 << attempt))
            attempt += 1
        }
    }

    /// Whether a request that failed with `error` is worth another attempt: not a 4xx (the server's answer
    /// about this request), not a refusal that would repeat (TLS, address policy, URL), not a stop.
    public static func mayAskAgain(_ error: TransferError) -> Bool {
        switch error.reason {
        case .httpStatus(let status): return !(400..<500).contains(status)
        case .cancelled, .engineStopped, .invalidURL, .unsupportedScheme, .addressRefused, .tlsVerificationFailed,
             .redirectRefused, .tooManyRedirects:
            return false
        default: return true
        }
    }

    /// Waits `seconds` for `service` when that is at most ``Settings/maxWait``; otherwise stops the source.
    public func pause(_ seconds: Double, service: String, why: String) async throws(SourceError) {
        guard seconds <= settings.maxWait else {
            let until = Date().addingTimeInterval(seconds).formatted(.iso8601)
            throw .rateLimited(service: service, message: "\(why); the service asks for a wait of \(Int(seconds.rounded(.up))) s "
                + "(until \(until)), longer than the \(Int(settings.maxWait)) s this run waits (--rate-limit-wait). "
                + "Everything done so far is kept: run the same command again after that time.")
        }
        onWait(service, seconds, why)
        do { try await sleeper(max(0, seconds)) } catch {
            throw .request(service: service, reason: "cancelled while waiting for the rate limit")
        }
    }

    private func waitForBudget(_ service: String) async throws(SourceError) {
        guard let state = states[service], let until = state.blockedUntil else { return }
        // Whoever waits clears the block for the others once the wait is over.
        let wait = until.timeIntervalSinceNow
        if wait > 0 { try await pause(wait, service: service, why: state.reason ?? "rate limit") }
        states[service] = RateLimitState()
    }

    /// The first line of an error body, without markup, at most 300 characters.
    static func summary(of body: String) -> String {
        let line = body.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let clean = line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        return String(String(String.UnicodeScalarView(clean)).prefix(300))
    }
}
