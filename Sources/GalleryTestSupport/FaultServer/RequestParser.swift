import Foundation

/// Parses an HTTP/1.x request head. Pure: no I/O, so the connection loop stays about sockets.
enum RequestParser {
    /// Requests with heads larger than this are refused (the connection is dropped).
    static let maximumHeadBytes = 64 * 1024

    struct Head {
        var method: String
        var target: String
        var version: String
        var headers: FaultServer.Headers
        var contentLength: Int
    }

    enum Failure: Error {
        case malformed(String)
    }

    /// The index just past the blank line ending the head, if `buffer` holds a whole head.
    static func headEnd(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 3..<buffer.count
        where buffer[index] == 10 && buffer[index - 1] == 13 && buffer[index - 2] == 10 && buffer[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    static func parse(_ head: ArraySlice<UInt8>) throws(Failure) -> Head {
        guard let text = String(bytes: head, encoding: .isoLatin1) else { throw .malformed("undecodable head") }
        var lines = text.components(separatedBy: "\r\n")
        while lines.last == "" { lines.removeLast() }
        guard let requestLine = lines.first else { throw .malformed("empty head") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else {
            throw .malformed("bad request line \(requestLine)")
        }
        var headers = FaultServer.Headers()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("bad header line \(line)") }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            headers.add(name, value)
        }
        var contentLength = 0
        if let declared = headers["Content-Length"] {
            guard let value = Int(declared), value >= 0 else { throw .malformed("bad Content-Length \(declared)") }
            contentLength = value
        }
        return Head(method: parts[0], target: parts[1], version: parts[2], headers: headers,
                    contentLength: contentLength)
    }

    /// Splits a target into path and query.
    static func split(target: String) -> (path: String, query: String?) {
        guard let mark = target.firstIndex(of: "?") else { return (target, nil) }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }
}
