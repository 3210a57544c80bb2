#if canImport(Glibc)
import Glibc
#endif

enum System {
    /// Cores this process may run on.
    static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// Error lines go to stderr unbuffered, one write per line so parallel workers never interleave.
enum StandardError {
    static func line(_ text: String) {
        var bytes = Array((text + "\n").utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}
