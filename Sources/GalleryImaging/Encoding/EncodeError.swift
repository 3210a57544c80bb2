/// Why a bitmap could not be encoded.
public enum EncodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A parameter out of range (quality outside 1...100).
    case invalidParameter(String)
    /// The codec refused; `format` is "JPEG" or "PNG", `reason` its message.
    case codecFailed(format: String, reason: String)

    /// One line saying what failed.
    public var description: String {
        switch self {
        case .invalidParameter(let what): "cannot encode: \(what)"
        case .codecFailed(let format, let reason): "\(format) encoder failed: \(reason)"
        }
    }
}
