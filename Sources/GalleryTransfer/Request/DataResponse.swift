import Foundation

/// A response held in memory: head, body bytes and metrics.
public struct DataResponse: Sendable {
    /// The URL asked for.
    public var url: String
    /// Status and headers.
    public var head: ResponseHead
    /// The body (for a non-2xx status, the error page as far as it was kept).
    public var body: [UInt8]
    /// Timings and byte counts over all attempts.
    public var metrics: TransferMetrics
    /// Where the body is when the request's ``HTTPRequest/spool`` took it (``body`` is then empty); nil:
    /// the body is in ``body``.
    public var spooledPath: String? = nil

    /// The HTTP status.
    public var status: Int { head.status }
    /// The response headers.
    public var headers: HTTPHeaders { head.headers }

    /// The body as text (UTF-8, invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// Collects a body in memory (bounded by the engine's body cap).
final class MemorySink: BodySink {
    private(set) var bytes: [UInt8] = []
    private let reserveLimit: Int64

    private(set) var expectedTotal: Int64?
    let progressBase: Int64 = 0

    private let headCheck: (@Sendable (HTTPHeaders) -> String?)?

    init(reserveLimit: Int64, headCheck: (@Sendable (HTTPHeaders) -> String?)? = nil) {
        self.reserveLimit = reserveLimit
        self.headCheck = headCheck
    }

    func begin(_ head: ResponseHead) -> SinkStart {
        if let why = headCheck?(head.headers) { return .abort(.refusedByHeaders(why)) }
        bytes.removeAll(keepingCapacity: true)
        expectedTotal = head.contentLength
        if let n = head.contentLength, n > 0 { bytes.reserveCapacity(Int(min(n, reserveLimit))) }
        return .accept(sniff: true)
    }

    func write(_ chunk: UnsafeRawBufferPointer) -> TransferError.Reason? {
        bytes.append(contentsOf: chunk)
        return nil
    }
}
