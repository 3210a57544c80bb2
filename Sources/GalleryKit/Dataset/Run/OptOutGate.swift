import GalleryTransfer

/// The AI opt-out signals `dataset` honours by default, before a body is read: the origin's robots.txt
/// (and its Content-Signal / Content-Usage lines) before the request is sent; X-Robots-Tag, Content-Usage
/// and TDMRep (header, else the origin's tdmrep.json) once the response's headers are in, aborting the
/// transfer there. The origins' files are fetched once per run through the run's engine.
struct OptOutGate: Sendable {
    let policy: OptOutPolicy
    let origins: OriginConsentCache

    /// The status an opted-out row gets, and the start of its message (`opted_out: X-Robots-Tag noai`).
    static let status = "opted_out"

    init(policy: OptOutPolicy, engine: TransferEngine) {
        self.policy = policy
        origins = OriginConsentCache(engine: engine, policy: policy)
    }

    /// What a row's request needs: a refusal before any request, or the header check to hand the engine.
    enum Decision: Sendable {
        case refused(String)
        case proceed(headCheck: @Sendable (HTTPHeaders) -> String?)
    }

    func decide(_ url: String) async -> Decision {
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

    static func message(_ signal: OptOutSignal) -> String { "\(status): \(signal.detail)" }

    /// Whether a row's error message is an opt-out (its status is then `opted_out`).
    static func isOptOut(_ message: String) -> Bool { message.hasPrefix(status + ": ") }
}
