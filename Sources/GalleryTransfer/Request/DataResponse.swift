import Foundation

/// A response held in memory: head, body bytes and metrics.
public struct DataResponse: Sendable {
    public var url: String
    public var head: ResponseHead
    public var body: [UInt8]
    public var metrics: TransferMetrics

    public var status: Int { head.status }
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

    init(reserveLimit: Int64) { self.reserveLimit = reserveLimit }

    func begin(_ head: ResponseHead) -> SinkStart {
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
