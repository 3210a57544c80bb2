/// The imaging layer's error: a decode or encode failure, each naming the input.
public enum ImagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input could not be decoded (not an image, truncated, corrupt, unsupported, too large, unreadable).
    case decode(DecodeError)
    /// The thumbnail of `name` could not be encoded.
    case encode(name: String, EncodeError)

    /// The input the error is about.
    public var name: String {
        switch self {
        case .decode(let error): error.name
        case .encode(let name, _): name
        }
    }

    /// One line: the input, then what went wrong.
    public var description: String {
        switch self {
        case .decode(let error): error.description
        case .encode(let name, let error): "\(name): \(error)"
        }
    }
}
