/// What an ``ImagePipeline`` does, for logs, metrics and progress displays.
public enum ImagePipelineEvent: Sendable {
    /// A request was answered from the decoded-image cache.
    case cacheHit(ImageRequest)
    /// A request joined a download and decode already in flight for the same source and size.
    case coalesced(ImageRequest)
    /// An original was downloaded (`bytes` of body).
    case downloaded(url: String, bytes: Int)
    /// An original was read from the on-disk store instead of being downloaded.
    case readFromStore(url: String, path: String)
    /// A source was decoded and scaled to the requested size, taking `seconds` of worker time.
    case decoded(ImageRequest, width: Int, height: Int, seconds: Double)
    /// A request failed (cancellations included).
    case failed(ImageRequest, ImagePipelineError)
}

/// Receives ``ImagePipelineEvent``s as well as the transfer events of `TransferObserver`,
/// the protocol the command-line progress bar uses. Add it to
/// ``ImagePipeline/Configuration/observers``; other `TransferObserver`s there get transfer events only.
///
/// Called from many threads at once: implementations must be thread-safe and quick.
public protocol ImagePipelineObserver: TransferObserver {
    /// One pipeline event.
    func pipeline(_ event: ImagePipelineEvent)
}

/// How far one request is, for a per-request progress display.
public struct ImageProgress: Sendable, Equatable {
    /// What the request is waiting for now.
    public enum Phase: Sendable, Equatable {
        /// Body bytes of the original are arriving.
        case downloading
        /// The original is being decoded and scaled.
        case decoding
    }

    /// The phase.
    public var phase: Phase
    /// Body bytes of the original received so far (the whole original once decoding).
    public var receivedBytes: Int64
    /// The original's size when known (from Content-Length, or the file).
    public var expectedBytes: Int64?

    /// Creates a progress value.
    public init(phase: Phase, receivedBytes: Int64, expectedBytes: Int64?) {
        self.phase = phase
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
    }

    /// `receivedBytes / expectedBytes` in 0...1, or nil when the size is unknown.
    public var fraction: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(receivedBytes) / Double(expectedBytes))
    }
}
