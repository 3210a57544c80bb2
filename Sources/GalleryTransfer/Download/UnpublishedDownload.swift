import Foundation

/// A download that arrived whole in memory and was verified (status, length, image signature), but
/// not yet written: asked for with ``DownloadRequest/leavesSmallBodyUnpublished``, so that the thread
/// which goes on to use the bytes (to hash and decode them) writes them too, instead of the task that
/// awaited the download. Only bodies that stayed under the engine's memory buffer limit and had no
/// partial on disk come back this way; any other download is published before it returns, as usual.
public struct UnpublishedDownload: Sendable {
    /// The whole body.
    public let bytes: [UInt8]
    /// Where the request asked for it.
    public let destination: String
    /// Whether publishing syncs the file and its folder (the request's or the engine's `durable`).
    public let durable: Bool

    /// Writes the bytes to a new file at `path` (the request's destination unless another name is
    /// given) and publishes it atomically: a reader sees no file or the whole one. An existing file
    /// at `path` is replaced.
    public func publish(to path: String? = nil) throws(TransferError) {
        let target = path ?? destination
        do throws(TransferError) {
            try DownloadSink.publishWhole(bytes, to: PartPaths(destination: target), durable: durable, removeSidecar: false)
        } catch {
            var e = error
            e.url = destination
            throw e
        }
    }
}
