/// Reads a request's head (request line and header fields, RFC 9112 §2-5) from the bytes received.
enum RequestHeadParser {
    /// What the bytes so far hold.
    enum Outcome {
        /// Not yet a whole head: receive more.
        case incomplete
        /// A request, its head `length` bytes long, and the length of the body that follows it.
        case request(HTTPServerRequest, length: Int, bodyLength: Int)
        /// Malformed or refused: answer `status` with `reason` and close.
        case refused(status: Int, reason: String)
    }

    /// Parses the head at the start of `bytes` (at most `limit` bytes of it).
    static func parse(_ bytes: ArraySlice<UInt8>, limit: Int) -> Outcome {
        guard let end = headEnd(bytes) else {
            return bytes.count > limit ? .refused(status: 431, reason: "request head over \(limit) bytes") : .incomplete
        }
        guard end - bytes.startIndex <= limit else { return .refused(status: 431, reason: "request head over \(limit) bytes") }
        guard let text = String(validating: bytes[bytes.startIndex..<end], as: UTF8.self) else {
            return .refused(status: 400, reason: "request head is not UTF-8")
        }
        // "\r\n" is one Character in Swift: lines split on it (or on a bare "\n").
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\r\n" || $0 == "\n" }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { return .refused(status: 400, reason: "empty request") }
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[1].first == "/" || parts[1] == "*",
              parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            return .refused(status: 400, reason: "malformed request line")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  line.first != " ", line.first != "\t", !line[..<colon].contains(" ") else {
                return .refused(status: 400, reason: "malformed header field")
            }
            headers.append((String(line[..<colon]), String(HTTPServerRequest.trimmed(line[line.index(after: colon)...]))))
        }
        let request = HTTPServerRequest(method: String(parts[0]), target: String(parts[1]), version: String(parts[2]), headers: headers)
        if request.header("Transfer-Encoding") != nil {
            return .refused(status: 501, reason: "request bodies in chunks are not accepted")
        }
        let lengths = request.headerValues("Content-Length")
        guard lengths.count <= 1, let bodyLength = lengths.isEmpty ? 0 : Int(lengths[0]), bodyLength >= 0 else {
            return .refused(status: 400, reason: "malformed Content-Length")
        }
        return .request(request, length: end + 4 - bytes.startIndex, bodyLength: bodyLength)
    }

    /// The index of the `\r\n\r\n` that ends the head, or nil.
    private static func headEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = bytes.startIndex
        let last = bytes.endIndex - 4
        while index <= last {
            if bytes[index + 3] != 0x0A { index += 1; continue }
            if bytes[index] == 0x0D, bytes[index + 1] == 0x0A, bytes[index + 2] == 0x0D { return index }
            index += 1
        }
        return nil
    }
}
