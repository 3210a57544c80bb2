import Glibc

/// Why the gallery folder could not be written or its journal read.
///
/// Cases carry the path involved and, for system calls, the call and its `errno`.
public enum GalleryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call on `path` failed.
    case system(call: String, path: String, errno: Int32)
    /// A value could not be encoded to JSON for `path`.
    case encoding(path: String, reason: String)
    /// The gallery's store (`s3://bucket/prefix`) could not take or give a file: `reason` names the
    /// key and what the store answered.
    case store(location: String, reason: String)

    /// One line: the call or path, then what went wrong.
    public var description: String {
        switch self {
        case let .system(call, path, code):
            "\(call)(\(path)) failed: \(String(cString: strerror(code))) (errno \(code))"
        case let .encoding(path, reason):
            "cannot encode JSON for \(path): \(reason)"
        case let .store(location, reason):
            "\(location): \(reason)"
        }
    }
}
