import Foundation
import GallerySystem

/// Where a request's body goes when it is large: kept in memory up to `memoryLimit` bytes, written to the
/// file at `path` once it is larger (or declared larger by Content-Length), so that many bodies in flight
/// hold at most `memoryLimit` bytes each. The caller owns `path`: the engine creates or truncates it, never
/// removes it, so whoever asked removes it when done with the body, whether the request succeeded or not.
public struct BodySpool: Sendable, Hashable {
    /// The file a large body is written to (its folder must exist).
    public var path: String
    /// The largest body kept in memory.
    public var memoryLimit: Int

    public init(path: String, memoryLimit: Int) {
        self.path = path
        self.memoryLimit = memoryLimit
    }
}

/// Collects a body in memory until it outgrows the spool's memory limit, then in the spool's file. Each
/// attempt has its own sink and starts the file over (truncating what an earlier attempt wrote).
final class SpoolSink: BodySink {
    let spool: BodySpool
    private let headCheck: (@Sendable (HTTPHeaders) -> String?)?
    private(set) var bytes: [UInt8] = []
    private var file: PartFile?
    /// Whether the body is in the spool's file rather than in ``bytes``.
    var spilled: Bool { file != nil }
    private(set) var expectedTotal: Int64?
    let progressBase: Int64 = 0

    init(spool: BodySpool, headCheck: (@Sendable (HTTPHeaders) -> String?)?) {
        self.spool = spool
        self.headCheck = headCheck
    }

    func begin(_ head: ResponseHead) -> SinkStart {
        if let why = headCheck?(head.headers) { return .abort(.refusedByHeaders(why)) }
        bytes.removeAll(keepingCapacity: true)
        file = nil
        expectedTotal = head.contentLength
        if let n = head.contentLength, n > spool.memoryLimit {
            if let reason = spill() { return .abort(reason) }
        } else if let n = head.contentLength, n > 0 {
            bytes.reserveCapacity(Int(n))
        }
        return .accept(sniff: true)
    }

    func write(_ chunk: UnsafeRawBufferPointer) -> TransferError.Reason? {
        if let file {
            do throws(TransferError) { try file.write(chunk) } catch { return error.reason }
            return nil
        }
        bytes.append(contentsOf: chunk)
        if bytes.count > spool.memoryLimit { return spill() }
        return nil
    }

    /// Moves what is held to the spool's file (created or truncated) and writes the rest there.
    private func spill() -> TransferError.Reason? {
        do throws(TransferError) {
            let f = try PartFile(path: spool.path, truncate: true)
            try f.write(bytes)
            bytes = []
            file = f
            return nil
        } catch {
            return error.reason
        }
    }

    /// Closes the file after the attempt (its bytes stay for the caller).
    func close() {
        file?.close()
    }
}
