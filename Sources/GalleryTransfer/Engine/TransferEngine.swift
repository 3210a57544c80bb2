import CCurl
import Foundation
import GallerySync
import Synchronization

/// The transfer engine: libcurl multi handles each on a thread of its own (``Lane``), one admission queue
/// (total and per-host limits), retries with backoff, and async/await results.
///
/// Thread-safe: submit from any task. Requests are built with `request(_:)`, files fetched with
/// `download(_:)`. Call `shutdown()` (or drop the last reference) to stop the loop thread.
public final class TransferEngine: Sendable {
    /// The limits and policies the engine was made with.
    public let configuration: TransferConfiguration
    let loops: [MultiLoop]
    let gate: AdmissionGate
    let pacer: HostPacer
    let observers: ObserverFanout
    private let lastID = Atomic<UInt64>(0)

    /// Starts an engine (and its loop thread) with `configuration`.
    public init(configuration: TransferConfiguration = TransferConfiguration()) {
        self.configuration = configuration
        let count = max(1, configuration.transferLoops)
        let limits = configuration.hostLimits
        let ownTransfers = limits.values.reduce(0) { $0 + $1.maxConcurrent }
        // Idle connections kept per share (``CurlShares``): a loop's current and previous shares together keep
        // twice the transfers, as one cache of twice the size did before connections were shared.
        loops = (0..<count).map { index in
            MultiLoop(maxConnections: max(32, configuration.maxConcurrentTransfers + ownTransfers),
                      name: count == 1 ? "fg-curl" : "fg-curl-\(index)")
        }
        gate = AdmissionGate(total: configuration.maxConcurrentTransfers, perHost: configuration.maxConcurrentPerHost,
                             own: limits.mapValues(\.maxConcurrent))
        observers = ObserverFanout(observers: configuration.observers,
                                   unobserved: Set(limits.filter { !$0.value.observed }.keys))
        pacer = HostPacer(requestsPerSecond: configuration.requestsPerSecondPerHost,
                          exemptsLoopback: configuration.rateExemptsLoopback,
                          exempt: Set(limits.filter { $0.value.exemptFromRate }.keys))
    }

    deinit { for loop in loops { loop.stop() } }

    /// Stops the loop threads; running transfers end with `.engineStopped`.
    public func shutdown() { for loop in loops { loop.stop() } }

    /// The most transfers that ran at once so far (admission-level, for checking limits).
    public var peakConcurrentTransfers: Int { gate.peakRunning }

    func nextID() -> TransferID {
        TransferID(rawValue: lastID.add(1, ordering: .relaxed).newValue)
    }

    /// The attempt spec for a request, with the attempt timeout cut to the remaining deadline.
    func spec(for request: HTTPRequest, remaining: Double, sniffImage: Bool) -> AttemptSpec {
        var headers = configuration.defaultHeaders
        for (name, value) in request.headers { headers.set(name, value) }
        if let token = request.awsSignature?.sessionToken { headers.set("x-amz-security-token", token) }
        return AttemptSpec(
            url: request.url, method: request.method,
            headers: headers.fields.map { ($0.name, $0.value) }, body: request.body,
            userAgent: configuration.userAgent,
            timeoutMilliseconds: Int(remaining * 1000),
            connectTimeoutMilliseconds: Int(min(configuration.connectTimeout, remaining) * 1000),
            lowSpeedLimit: configuration.lowSpeedLimit, lowSpeedSeconds: configuration.lowSpeedWindow,
            endsBodiesThatCannotFinish: configuration.endsBodiesThatCannotFinish,
            maxBodyBytes: min(request.maxBodyBytes ?? .max, configuration.maxBodyBytes),
            maxRedirects: configuration.maxRedirects,
            sniffImage: sniffImage, caCertificatesPath: configuration.caCertificatesPath,
            addressPolicy: request.addressPolicy, refusesLinkLocal: !configuration.allowsLinkLocal,
            awsSignature: request.awsSignature)
    }

    /// Runs one attempt on the loop of `lane`: through the resolver and hop by hop when one is set, else as
    /// one libcurl transfer that follows its own redirects.
    func perform(_ spec: AttemptSpec, sink: BodySink, lane: Lane = Lane(loop: 0),
                 onProgress: (@Sendable (Int64, Int64?) -> Void)?) async -> AttemptOutcome {
        guard let resolver = configuration.resolver else {
            return await performHop(spec, sink: sink, lane: lane, onProgress: onProgress)
        }
        return await performResolved(spec, resolver: resolver, sink: sink, lane: lane, onProgress: onProgress)
    }

    /// Runs one libcurl transfer on the loop of `lane`. Task cancellation aborts it from libcurl's progress
    /// callback.
    func performHop(_ spec: AttemptSpec, sink: BodySink, lane: Lane,
                    onProgress: (@Sendable (Int64, Int64?) -> Void)?) async -> AttemptOutcome {
        let loop = loops[lane.loop]
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(spec: spec, sink: sink, onProgress: onProgress)
        } catch {
            return AttemptOutcome(code: error.code, curlMessage: error.description, head: nil, abortReason: nil,
                                  bodyBytes: 0, errorBody: [], effectiveURL: nil, metrics: AttemptMetrics())
        }
        return await withTaskCancellationHandler {
            await withHandOffContinuation { (c: HandOffContinuation<AttemptOutcome, Never>) in
                transfer.continuation = c
                loop.submit(transfer)
            }
        } onCancel: {
            transfer.cancelled.store(true, ordering: .relaxed)
            loop.wakeup()
        }
    }

    /// Turns a failed attempt into the public error.
    func error(for outcome: AttemptOutcome, url: String, attempt: Int, bodyLimit: Int64? = nil) -> TransferError? {
        let lowSpeed = (configuration.lowSpeedLimit, configuration.lowSpeedWindow)
        guard var reason = OutcomeClassifier.failure(outcome, maxRedirects: configuration.maxRedirects,
                                                     lowSpeed: lowSpeed) else { return nil }
        if case .bodyTooLarge(0, let declared) = reason {
            reason = .bodyTooLarge(limit: bodyLimit ?? configuration.maxBodyBytes, declared: declared)
        }
        // When our own callback stopped the transfer, libcurl's message only says that a callback did
        // ("Failed writing header", "Couldn't connect to server" for a refused address): the reason says why.
        let curlMessage = outcome.code == CURLE_OK || outcome.abortReason != nil ? nil : outcome.curlMessage
        return TransferError(url: url, reason: reason, status: outcome.head?.status, attempts: attempt,
                             curlMessage: curlMessage)
    }
}
