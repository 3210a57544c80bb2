/// Why an ``ImagePipeline`` request failed: which source, in which stage, and the stage's own
/// typed error (which names its input too).
public struct ImagePipelineError: Error, Sendable, CustomStringConvertible {
    /// The stage a request failed in.
    public enum Stage: String, Sendable, Hashable {
        /// The request itself was unusable (a size below one pixel).
        case request
        /// Fetching the original over HTTP.
        case transfer
        /// Reading or writing the on-disk originals store.
        case store
        /// Reading a local file, decoding, scaling.
        case decode
    }

    /// The underlying error, one case per layer.
    public enum Reason: Sendable {
        /// The transfer engine's error (status, timeout, cut body, ...).
        case transfer(TransferError)
        /// The decoder's error (not an image, corrupt, too large, unreadable file, ...).
        case decode(DecodeError)
        /// A file system error of the originals store.
        case store(GalleryError)
        /// The request was malformed; the text says how.
        case invalidRequest(String)
        /// The calling task was cancelled before the image was ready.
        case cancelled
    }

    /// The request's source (a URL or a file path).
    public var source: ImageRequest.Source
    /// The stage that failed.
    public var stage: Stage
    /// What went wrong, as the stage reported it.
    public var reason: Reason

    /// Creates an error; the pipeline builds these, tests and wrappers may too.
    public init(source: ImageRequest.Source, stage: Stage, reason: Reason) {
        self.source = source
        self.stage = stage
        self.reason = reason
    }

    /// Whether the request ended because its task was cancelled.
    public var isCancellation: Bool {
        if case .cancelled = reason { return true }
        if case .transfer(let error) = reason, case .cancelled = error.reason { return true }
        return false
    }

    /// The transfer error, when the transfer stage failed.
    public var transferError: TransferError? {
        if case .transfer(let error) = reason { return error }
        return nil
    }

    /// The decode error, when the decode stage failed.
    public var decodeError: DecodeError? {
        if case .decode(let error) = reason { return error }
        return nil
    }

    /// The HTTP status of the final response, when a transfer got one.
    public var httpStatus: Int? { transferError?.status }

    /// One line: the source, the stage, then the underlying error.
    public var description: String {
        let detail: String
        switch reason {
        case .transfer(let error): detail = error.description
        case .decode(let error): detail = error.description
        case .store(let error): detail = error.description
        case .invalidRequest(let why): detail = why
        case .cancelled: detail = "cancelled"
        }
        return "\(source): \(stage.rawValue) failed: \(detail)"
    }

    static func cancelled(_ source: ImageRequest.Source, stage: Stage) -> ImagePipelineError {
        ImagePipelineError(source: source, stage: stage, reason: .cancelled)
    }
}
