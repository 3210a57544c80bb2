import Foundation

/// A request that has not run yet, with the validations to apply to its response. Chain `validate` calls,
/// then finish with `response()`, `data()`, `string()`, `json()` or `decode(_:)`:
///
/// ```swift
/// let page = try await engine.request(PhotoAPI.page(2))
///     .validate(statusCode: 200..<300)
///     .validate(contentType: ["application/json"])
///     .decode(Page.self)
/// ```
public struct DataRequest: Sendable {
    let engine: TransferEngine
    var built: Result<HTTPRequest, TransferError>
    var statusRanges: [Range<Int>] = []
    var contentTypes: [String] = []
    var expectImage = false
    var progressHandler: (@Sendable (_ received: Int64, _ expected: Int64?) -> Void)?

    /// Accepts only these statuses (after redirects and retries).
    public func validate(statusCode range: Range<Int>) -> DataRequest {
        var copy = self
        copy.statusRanges.append(range)
        return copy
    }

    /// Accepts only these media types ("image/*" and "*/*" wildcards allowed).
    public func validate(contentType types: [String]) -> DataRequest {
        var copy = self
        copy.contentTypes.append(contentsOf: types.map { $0.lowercased() })
        return copy
    }

    /// Accepts 2xx statuses only (the common case, as Alamofire's `validate()`).
    public func validate() -> DataRequest {
        validate(statusCode: 200..<300)
    }

    /// Limits which addresses the request and its redirects may connect to (see `AddressPolicy`).
    public func addressPolicy(_ policy: AddressPolicy) -> DataRequest {
        editingRequest { $0.addressPolicy = policy }
    }

    /// Caps this response's body (after Content-Encoding decoding) below the engine's cap.
    public func maximumBodySize(_ bytes: Int64) -> DataRequest {
        editingRequest { $0.maxBodyBytes = bytes }
    }

    /// A copy whose request (once built) gets `edit` applied.
    private func editingRequest(_ edit: (inout HTTPRequest) -> Void) -> DataRequest {
        var copy = self
        copy.built = built.map { request in
            var request = request
            edit(&request)
            return request
        }
        return copy
    }

    /// Requires the body to start with a JPEG, PNG, GIF or WebP signature, whatever Content-Type says.
    public func expectingImage() -> DataRequest {
        var copy = self
        copy.expectImage = true
        return copy
    }

    /// Calls `handler` as body bytes arrive: bytes received so far in the current attempt and the
    /// declared length when the server sent one. Called on the engine's thread: keep it quick.
    public func onProgress(_ handler: @escaping @Sendable (_ received: Int64, _ expected: Int64?) -> Void) -> DataRequest {
        var copy = self
        copy.progressHandler = handler
        return copy
    }

    /// Runs the request (with retries) and applies the validations.
    public func response() async throws(TransferError) -> DataResponse {
        let request = try built.get()
        let response = try await engine.run(request, expectImage: expectImage, onProgress: progressHandler)
        try check(response)
        return response
    }

    /// Runs the request and returns the body bytes.
    public func data() async throws(TransferError) -> [UInt8] { try await response().body }

    /// Runs the request and returns the body as UTF-8 text.
    public func string() async throws(TransferError) -> String { try await response().text }

    /// The body parsed with JSONSerialization (dictionaries, arrays, numbers, strings).
    public func json() async throws(TransferError) -> Any {
        let r = try await response()
        do { return try JSONSerialization.jsonObject(with: Data(r.body), options: [.fragmentsAllowed]) } catch {
            throw TransferError(url: r.url, reason: .decodingFailed("\(error)"), status: r.status,
                                attempts: r.metrics.attempts)
        }
    }

    /// Runs the request and decodes the JSON body as `type`.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) async throws(TransferError) -> T {
        let r = try await response()
        do { return try decoder.decode(T.self, from: Data(r.body)) } catch {
            throw TransferError(url: r.url, reason: .decodingFailed("\(T.self): \(error)"), status: r.status,
                                attempts: r.metrics.attempts)
        }
    }

    private func check(_ r: DataResponse) throws(TransferError) {
        if !statusRanges.isEmpty, !statusRanges.contains(where: { $0.contains(r.status) }) {
            throw TransferError(url: r.url, reason: .httpStatus(r.status), status: r.status, attempts: r.metrics.attempts)
        }
        if !contentTypes.isEmpty {
            let media = r.head.mediaType
            let ok = contentTypes.contains { Self.matches(pattern: $0, media) }
            if !ok {
                throw TransferError(url: r.url, reason: .unacceptableContentType(media), status: r.status,
                                    attempts: r.metrics.attempts)
            }
        }
    }

    static func matches(pattern: String, _ media: String?) -> Bool {
        if pattern == "*/*" { return true }
        guard let media else { return false }
        if pattern.hasSuffix("/*") { return media.hasPrefix(pattern.dropLast(1)) }
        return media == pattern
    }
}

extension TransferEngine {
    /// A request from a router value (see `Router`).
    public func request(_ router: some Router) -> DataRequest {
        DataRequest(engine: self, built: Result { () throws(TransferError) in try router.asRequest() })
    }

    /// A request from a built `HTTPRequest`.
    public func request(_ request: HTTPRequest) -> DataRequest {
        DataRequest(engine: self, built: Result { () throws(TransferError) in try request.checked() })
    }

    /// A GET of a URL string.
    public func request(_ url: String) -> DataRequest { request(HTTPRequest(url: url)) }

    /// Runs a request in memory with retries; returns the final response whatever its status, unless the
    /// status stayed retryable through every attempt.
    func run(_ request: HTTPRequest, expectImage: Bool,
             onProgress: (@Sendable (Int64, Int64?) -> Void)? = nil) async throws(TransferError) -> DataResponse {
        let id = nextID()
        let (response, metrics) = try await withRetries(url: request.url, id: id) { (number, remaining, lane, metrics: inout TransferMetrics) -> AttemptStep<DataResponse> in
            let spec = spec(for: request, remaining: remaining, sniffImage: expectImage)
            let sink: any BodySink = request.spool.map { SpoolSink(spool: $0, headCheck: request.headCheck) }
                ?? MemorySink(reserveLimit: min(spec.maxBodyBytes, 64 << 20), headCheck: request.headCheck)
            let outcome = await perform(spec, sink: sink, lane: lane, onProgress: onProgress)
            (sink as? SpoolSink)?.close()
            metrics.lastAttempt = outcome.metrics
            metrics.bytesReceived += outcome.bodyBytes
            if let error = error(for: outcome, url: request.url, attempt: number, bodyLimit: spec.maxBodyBytes) {
                return .retry(error, retryAfter: nil)
            }
            let head = outcome.head ?? ResponseHead(status: 0)
            let reason = TransferError.statusReason(head.status, body: outcome.errorBody)
            let limited = head.status == 429 || reason != .httpStatus(head.status)
            // A caller that reads rate-limited answers itself (a photo source's client) gets them back.
            if RetryPolicy.retryableStatuses.contains(head.status) || limited, !(request.returnsRateLimitedAnswers && limited) {
                let e = TransferError(url: request.url, reason: reason, status: head.status, attempts: number)
                return .retry(e, retryAfter: head.headers["Retry-After"])
            }
            let success = (200..<300).contains(head.status)
            if success, let spooled = sink as? SpoolSink {
                return .done(DataResponse(url: request.url, head: head, body: spooled.spilled ? [] : spooled.bytes,
                                          metrics: TransferMetrics(), spooledPath: spooled.spilled ? spooled.spool.path : nil))
            }
            let body = success ? (sink as? MemorySink)?.bytes ?? [] : outcome.errorBody
            return .done(DataResponse(url: request.url, head: head, body: body, metrics: TransferMetrics()))
        }
        var result = response
        result.metrics = metrics
        return result
    }
}
