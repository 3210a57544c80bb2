/// The one error of the dataset writers; each case names the file it is about and why.
public enum DatasetFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed on `path` (`operation` is the call, `errno` its code).
    case io(path: String, operation: String, errno: Int32)
    /// A name the sink refuses: empty, absolute, or going up with `..`.
    case invalidName(String)
    /// A tar member name that does not fit a ustar header (100 bytes, or 155 + 100 split at a `/`).
    case memberNameTooLong(file: String, member: String)
    /// A member or record larger than the format can describe.
    case tooLarge(file: String, what: String, bytes: Int)
    /// A row that does not match the schema (wrong column count or type).
    case schemaMismatch(file: String, reason: String)
    /// A schema the writers cannot write (duplicate or empty column names, a bad image extension).
    case invalidSchema(String)
    /// The compressor refused a page.
    case compression(file: String, codec: String, reason: String)
    /// A write after `close()` / `finish(stats:)`.
    case closed(file: String)

    public var description: String {
        switch self {
        case .io(let path, let operation, let code):
            return "\(path): \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .invalidName(let name):
            return "'\(name)': not a relative name inside the output folder"
        case .memberNameTooLong(let file, let member):
            return "\(file): tar member name '\(member)' is too long for a ustar header"
        case .tooLarge(let file, let what, let bytes):
            return "\(file): \(what) of \(bytes) bytes is too large for the format"
        case .schemaMismatch(let file, let reason):
            return "\(file): \(reason)"
        case .invalidSchema(let reason):
            return "invalid dataset schema: \(reason)"
        case .compression(let file, let codec, let reason):
            return "\(file): \(codec) compression failed: \(reason)"
        case .closed(let file):
            return "\(file): written after it was closed"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
