import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FaultServer {
    /// Formats an HTTP-date (RFC 9110 IMF-fixdate), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, for
    /// Last-Modified, Retry-After and If-Range. Sub-second precision is dropped, as on the wire.
    ///
    /// Built on `gmtime_r`/`strftime` in the C locale rather than `DateFormatter`, which is not
    /// Sendable and would need a lock on every server thread.
    public static func httpDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Parses an HTTP-date in any of the three forms RFC 9110 says a recipient must accept
    /// (IMF-fixdate, RFC 850, asctime). Nil if it is none of them.
    public static func parseHTTPDate(_ text: String) -> Date? {
        let formats = ["%a, %d %b %Y %H:%M:%S GMT", "%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"]
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        // strptime returns a pointer into its input, so the C string must outlive the check of
        // `end.pointee`: passing `trimmed` directly bridged a temporary that was freed when the call
        // returned (AddressSanitizer: heap-use-after-free, found by Scripts/check-sanitizers).
        return trimmed.withCString { input -> Date? in
            for format in formats {
                var parts = tm()
                guard let end = GNUFunctions.strptime(input, format, &parts), end.pointee == 0 else { continue }
                return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
            }
            return nil
        }
    }
}
