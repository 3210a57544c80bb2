import Foundation

/// Serves the requests of one TCP connection, in order, until either side closes.
struct Connection {
    /// Request bodies larger than this are not read; the connection is dropped instead.
    static let maximumBodyBytes = 64 * 1024 * 1024

    let core: ServerCore
    let fd: Int32
    let id: Int

    func run() {
        var buffer: [UInt8] = []
        while !core.isStopped {
            guard let end = readHead(into: &buffer) else { return }
            let head: RequestParser.Head
            do {
                head = try RequestParser.parse(buffer[0..<end])
            } catch {
                let bad = FaultServer.Response.status(400, headers: ["Connection": "close"], text: "\(error)\n")
                _ = ResponseWriter(core: core, fd: fd, path: "").write(bad, method: "GET", closeRequested: true)
                return
            }
            let arrival = Date()
            buffer.removeFirst(end)
            if head.contentLength > 0, head.headers["Expect"]?.lowercased() == "100-continue" {
                // Without this, curl waits a second before sending any body over 1 kB.
                let proceed = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                guard Socket.sendAll(fd, proceed[...]) == proceed.count else { return }
            }
            guard head.contentLength <= Self.maximumBodyBytes,
                  fill(&buffer, to: head.contentLength) else { return }
            let body = Array(buffer.prefix(head.contentLength))
            buffer.removeFirst(head.contentLength)

            let (path, query) = RequestParser.split(target: head.target)
            let request = FaultServer.Request(
                method: head.method, target: head.target, path: path, query: query, version: head.version,
                headers: head.headers, body: body, arrival: arrival, connectionID: id)
            let attempt = core.record(request)
            var response = (core.handler(for: path) ?? core.fallbackHandler())?(request, attempt)
                ?? .status(404, headers: ["Content-Type": "text/plain"], text: "no route for \(path)\n")
            if let file = response.file {
                response = FileResolution.resolve(file, base: response, for: request)
            }
            let writer = ResponseWriter(core: core, fd: fd, path: path)
            guard writer.write(response, method: request.method, closeRequested: request.wantsClose) else {
                return
            }
        }
    }

    /// Reads until `buffer` holds a whole request head; returns where it ends, or nil if the
    /// peer closed, the server stopped, or the head grew past the limit.
    private func readHead(into buffer: inout [UInt8]) -> Int? {
        while true {
            if let end = RequestParser.headEnd(in: buffer) { return end }
            guard buffer.count <= RequestParser.maximumHeadBytes else { return nil }
            let chunk = Socket.receive(fd)
            if chunk.isEmpty { return nil }
            buffer += chunk
        }
    }

    private func fill(_ buffer: inout [UInt8], to count: Int) -> Bool {
        while buffer.count < count {
            let chunk = Socket.receive(fd)
            if chunk.isEmpty { return false }
            buffer += chunk
        }
        return true
    }
}
