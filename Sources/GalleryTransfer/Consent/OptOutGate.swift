/// The AI opt-out signals honoured before a body is read: the origin's robots.txt (and its Content-Signal /
/// Content-Usage lines) before the request is sent; X-Robots-Tag, Content-Usage and TDMRep (header, else the
/// origin's tdmrep.json) once the response's headers are in, aborting the transfer there. The origins' files
/// are fetched once per run through the run's engine. `dataset` honours them by default; `run` and
/// `download` with `--respect-opt-out`.
public struct OptOutGate: Sendable {
    public let policy: OptOutPolicy
    public let origins: OriginConsentCache

    /// The status an opted-out item gets, and the start of its message (`opted_out: X-Robots-Tag noai`).
    public static let status = "opted_out"

    public init(policy: OptOutPolicy, engine: TransferEngine) {
        self.policy = policy
        origins = OriginConsentCache(engine: engine, policy: policy)
    }

    /// What a request needs: a refusal before any request, or the header check to hand the engine.
    public enum Decision: Sendable {
        case refused(String)
        case proceed(headCheck: @Sendable (HTTPHeaders) -> String?)
    }

    public func decide(_ url: String) async -> Decision {
        guard let (_, path) = OriginConsentCache.split(url) else {
            return .proceed(headCheck: { _ in nil })
        }
        let origin = await origins.consent(for: url)
        if let signal = policy.beforeRequest(path: path, origin: origin) { return .refused(Self.message(signal)) }
        let policy = policy
        return .proceed(headCheck: { headers in
            policy.atHeaders(path: path, headers: headers, origin: origin).map(Self.message)
        })
    }

    public static func message(_ signal: OptOutSignal) -> String { "\(status): \(signal.detail)" }

    /// Whether an error message is an opt-out (its status is then `opted_out`).
    public static func isOptOut(_ message: String) -> Bool { message.hasPrefix(status + ": ") }
}
