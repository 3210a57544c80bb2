import Glibc

/// A failed system call: which call, on which path, and the `errno` it left.
///
/// Every module maps it into its own layer's error (`GalleryError.system`, `TransferError.fileSystem`,
/// `DecodeError.io`, `DatasetFormatError.io`); the message is `strerror(errno)`, the text users already see.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The system call that failed (`open`, `write`, `linkat`, ...).
    public let call: String
    /// The path it was called on (for a descriptor, the path it was opened from).
    public let path: String
    /// The `errno` it set.
    public let errno: Int32

    /// A failure of `call` on `path` with `errno`.
    public init(call: String, path: String, errno: Int32) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// A failure of `call` on `path` with the current thread's `errno`.
    static func last(_ call: String, _ path: String) -> SystemError {
        SystemError(call: call, path: path, errno: Glibc.errno)
    }

    /// `strerror(errno)`: "No such file or directory".
    public var message: String { String(cString: strerror(errno)) }

    /// "open /a/b: No such file or directory".
    public var description: String { "\(call) \(path): \(message)" }
}
