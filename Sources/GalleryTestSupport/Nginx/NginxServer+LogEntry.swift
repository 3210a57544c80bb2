import Foundation

extension NginxServer {
    /// One line of the harness's access log.
    public struct LogEntry: Sendable, Equatable {
        /// When nginx finished the request.
        public let time: Date
        public let method: String
        /// The normalised URI, without the query.
        public let path: String
        public let query: String?
        public let status: Int
        /// `$body_bytes_sent`: body bytes nginx sent for this request.
        public let bodyBytesSent: Int
        /// `$bytes_sent`: headers plus body.
        public let bytesSent: Int
        /// The request's Range header, if any.
        public let range: String?
        /// The request's If-Range header, if any.
        public let ifRange: String?
        /// nginx's connection serial number (equal for requests on one keep-alive connection).
        public let connection: Int
        /// How many requests this connection had carried, this one included.
        public let connectionRequests: Int
        /// `$server_protocol`: "HTTP/1.1", "HTTP/2.0", ...
        public let serverProtocol: String

        /// Parses one tab-separated line in `NginxConfig.logFields` order; nil if malformed.
        init?(line: String) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == NginxConfig.logFields.count,
                  let seconds = Double(fields[0]), let status = Int(fields[4]),
                  let body = Int(fields[5]), let total = Int(fields[6]),
                  let connection = Int(fields[9]), let requests = Int(fields[10]) else { return nil }
            func optional(_ value: String) -> String? {
                value == "-" || value.isEmpty ? nil : Self.unescape(value)
            }
            time = Date(timeIntervalSince1970: seconds)
            method = fields[1]
            path = fields[2]
            query = optional(fields[3])
            self.status = status
            bodyBytesSent = body
            bytesSent = total
            range = optional(fields[7])
            ifRange = optional(fields[8])
            self.connection = connection
            connectionRequests = requests
            serverProtocol = fields[11]
        }

        /// nginx writes `"`, `\` and non-printable bytes in logged variables as `\xNN`.
        static func unescape(_ value: String) -> String {
            guard value.contains("\\x") else { return value }
            var bytes: [UInt8] = []
            let source = Array(value.utf8)
            var index = 0
            while index < source.count {
                if source[index] == UInt8(ascii: "\\"), index + 3 < source.count, source[index + 1] == UInt8(ascii: "x"),
                   let byte = UInt8(String(decoding: source[(index + 2)...(index + 3)], as: UTF8.self), radix: 16) {
                    bytes.append(byte)
                    index += 4
                } else {
                    bytes.append(source[index])
                    index += 1
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
