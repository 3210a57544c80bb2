import Foundation

/// Writes one response, applying its faults, and counts the body bytes that reached the socket.
struct ResponseWriter {
    let core: ServerCore
    let fd: Int32
    /// The request path the body bytes are counted under.
    let path: String

    /// Sends `response`; returns whether the connection may carry another request.
    func write(_ response: FaultServer.Response, method: String, closeRequested: Bool) -> Bool {
        let faults = response.faults
        if faults.dropConnection { return false }
        if let delay = faults.stallBeforeHeaders, !core.pause(delay) { return false }
        if let size = faults.sendBuffer { Socket.setSendBuffer(fd, size) }
        if let raw = faults.raw {
            _ = Socket.sendAll(fd, raw[...])
            return false
        }
        if faults.endlessHeaders {
            sendEndlessHeaders(status: response.status)
            return false
        }

        var headers = response.headers
        var body = response.body
        if faults.gzip {
            body = FaultServer.gzip(body)
            headers.set("Content-Encoding", "gzip")
        }
        let status = response.status
        let bodyAllowed = method != "HEAD" && !(100..<200).contains(status) && status != 204 && status != 304
        var close = closeRequested || faults.cutAfter != nil || faults.resetAfter != nil
        if faults.chunked {
            headers.set("Content-Length", nil)
            headers.set("Transfer-Encoding", "chunked")
        } else if faults.omitContentLength {
            headers.set("Content-Length", nil)
            close = true
        } else if let declared = faults.declaredContentLength {
            headers.set("Content-Length", String(declared))
            close = close || declared != body.count
        } else if let given = headers["Content-Length"] {
            // A test-supplied length (e.g. 50 GB over a short body) is sent as is; the connection
            // cannot be reused after a body that does not match it.
            close = close || Int(given) != body.count || headers.values("Content-Length").count > 1
        } else if status != 304 && status != 204 && !(100..<200).contains(status) {
            headers.set("Content-Length", String(body.count))
        }
        if !headers.contains("Date") { headers.set("Date", FaultServer.httpDate(Date())) }
        if close { headers.set("Connection", "close") }

        var head = "HTTP/1.1 \(status) \(FaultServer.reasonPhrase(status))\r\n"
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        head += "\r\n"
        let headBytes = Array(head.utf8)
        guard Socket.sendAll(fd, headBytes[...]) == headBytes.count else { return false }
        guard bodyAllowed else { return !close }
        guard sendBody(body[...], faults: faults) else { return false }
        return !close
    }

    /// Sends the body in slices, honouring cut, stall and trickle. False if the connection must
    /// end (cut, peer gone, server stopping).
    private func sendBody(_ body: ArraySlice<UInt8>, faults: FaultServer.Faults) -> Bool {
        let limit = min(body.count, faults.cutAfter ?? Int.max, faults.resetAfter ?? Int.max)
        let sliceSize = faults.bytesPerSecond.map { max(1, $0 / 10) } ?? 64 * 1024
        var stallPending = faults.stall
        var sent = 0
        while sent < limit {
            if let stall = stallPending, stall.after <= sent {
                stallPending = nil
                guard core.pause(stall.seconds) else { return false }
            }
            var count = min(sliceSize, limit - sent)
            if let stall = stallPending { count = min(count, stall.after - sent) }
            let slice = body[(body.startIndex + sent)..<(body.startIndex + sent + count)]
            guard sendPayload(slice, chunked: faults.chunked) else { return false }
            sent += count
            if let rate = faults.bytesPerSecond, !core.pause(Double(count) / Double(rate)) { return false }
        }
        if let stall = stallPending, !core.pause(stall.seconds) { return false }
        if faults.resetAfter.map({ $0 < body.count }) ?? false {
            // A reset drops what still waits in the send queue: wait until the client has every byte sent,
            // so that a client reading slowly (a busy machine) gets exactly the bytes before the reset.
            guard awaitAcknowledged(within: 10) else { return false }
            Socket.resetOnClose(fd)
            return false
        }
        if faults.cutAfter.map({ $0 < body.count }) ?? false { return false }
        if faults.chunked {
            let last = Array("0\r\n\r\n".utf8)
            return Socket.sendAll(fd, last[...]) == last.count
        }
        return true
    }

    /// Waits until the peer has acknowledged every byte sent, or `seconds` pass (a client that stopped
    /// reading). False if the server is stopping.
    private func awaitAcknowledged(within seconds: Double) -> Bool {
        var waited = 0.0
        while let pending = Socket.unacknowledgedBytes(fd), pending > 0, waited < seconds {
            guard core.pause(0.002) else { return false }
            waited += 0.002
        }
        return true
    }

    private func sendEndlessHeaders(status: Int) {
        let statusLine = Array("HTTP/1.1 \(status) \(FaultServer.reasonPhrase(status))\r\n".utf8)
        guard Socket.sendAll(fd, statusLine[...]) == statusLine.count else { return }
        let filler = String(repeating: "x", count: 1000)
        var sent = 0
        var index = 0
        while sent < 256 << 20, !core.isStopped {
            index += 1
            let line = Array("X-Filler-\(index): \(filler)\r\n".utf8)
            guard Socket.sendAll(fd, line[...]) == line.count else { return }
            sent += line.count
        }
    }

    private func sendPayload(_ slice: ArraySlice<UInt8>, chunked: Bool) -> Bool {
        if chunked {
            let size = Array((String(slice.count, radix: 16) + "\r\n").utf8)
            guard Socket.sendAll(fd, size[...]) == size.count else { return false }
        }
        // Counted before sending: a client can read the last byte and the test can ask for the
        // count before this thread runs again. A failed send takes back what was not written.
        core.countBodyBytes(slice.count, path: path)
        let written = Socket.sendAll(fd, slice)
        guard written == slice.count else {
            core.countBodyBytes(written - slice.count, path: path)
            return false
        }
        if chunked {
            let end = Array("\r\n".utf8)
            return Socket.sendAll(fd, end[...]) == end.count
        }
        return true
    }
}
