import CCurl
import Foundation
import GallerySync
import Synchronization

/// One attempt of one transfer: the easy handle, its callbacks and what they observed.
///
/// `@unchecked Sendable` because ownership moves between threads instead of being shared: the submitting task
/// configures it, hands it to the multi loop through the loop's mutex-guarded queue (which orders the memory),
/// the loop thread alone touches it while libcurl drives it, and resuming the continuation hands it back.
/// The only field touched concurrently is `cancelled`, which is an atomic.
final class CurlTransfer: @unchecked Sendable {
    let easy: EasyHandle
    let spec: AttemptSpec
    private let sink: BodySink
    private let onProgress: (@Sendable (Int64, Int64?) -> Void)?
    let cancelled = Atomic<Bool>(false)
    var continuation: HandOffContinuation<AttemptOutcome, Never>?

    private var parser = HeadParser()
    private var finalHead: ResponseHead?
    private var bodyBegun = false
    private var bodyBytes: Int64 = 0
    private var abortReason: TransferError.Reason?
    private var sniffPrefix: [UInt8]?
    private var errorBody: [UInt8] = []
    private var lastProgressNanos: UInt64 = 0
    private var speedWindow = SpeedWindow()
    /// When libcurl first reported on this attempt and when its body began (uptime ns; 0: not yet).
    private var startNanos: UInt64 = 0
    private var bodyStartNanos: UInt64 = 0
    private var headerBytes = 0
    /// Requests about to be sent so far (redirects included): before the first, every connection goes to
    /// the URL's own host.
    var requestsSent = 0
    /// The class of the address the first request went to, for `AddressPolicy.atMostAsPrivateAsOrigin`.
    var originClass: AddressClass?
    /// Across all header blocks of the attempt (redirects included); real responses use a few KB.
    static let maxHeaderBytes = 256 * 1024

    init(spec: AttemptSpec, sink: BodySink, onProgress: (@Sendable (Int64, Int64?) -> Void)?) throws(CurlSetupError) {
        self.spec = spec
        self.sink = sink
        self.onProgress = onProgress
        if let origin = spec.redirectOrigin {
            requestsSent = 1
            originClass = origin
        }
        easy = try EasyHandle()
        try configure()
    }

    private func configure() throws(CurlSetupError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_URL, spec.url)
        // Safety: http(s) only, for the first request and for every redirect (file:// etc. refused).
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_FOLLOWLOCATION, spec.followRedirects ? 1 : 0)
        if !spec.resolveEntries.isEmpty { try easy.setResolve(spec.resolveEntries) }
        if spec.addressesFromResolver { try easy.set(CURLOPT_DNS_CACHE_TIMEOUT, -1) }
        try easy.set(CURLOPT_MAXREDIRS, spec.maxRedirects)
        try easy.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        // "" = every encoding libcurl supports; the write callback then sees decoded bytes, so the cap
        // applies to what we actually store (a gzip bomb stops at the cap).
        try easy.set(CURLOPT_ACCEPT_ENCODING, "")
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_USERAGENT, spec.userAgent)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, spec.connectTimeoutMilliseconds)
        try easy.set(CURLOPT_TIMEOUT_MS, max(1, spec.timeoutMilliseconds))
        if spec.lowSpeedLimit > 0 && spec.lowSpeedSeconds > 0 {
            try easy.set(CURLOPT_LOW_SPEED_LIMIT, spec.lowSpeedLimit)
            try easy.set(CURLOPT_LOW_SPEED_TIME, spec.lowSpeedSeconds)
        }
        try easy.set(CURLOPT_MAXFILESIZE_LARGE, offset: spec.maxBodyBytes)
        try easy.set(CURLOPT_BUFFERSIZE, 128 * 1024)
        // Over https with HTTP/2, a transfer waits for the host's first connection to learn whether it
        // can multiplex on it, rather than opening a connection of its own per transfer. Plain http never
        // multiplexes here (HTTP/2 only over TLS): waiting there would hold a transfer until another one's
        // response arrives, however slow that server is.
        if URLParts(spec.url)?.scheme == "https" {
            try easy.set(CURLOPT_PIPEWAIT, 1)
        }
        if let ca = spec.caCertificatesPath { try easy.set(CURLOPT_CAINFO, ca) }
        if let signature = spec.awsSignature {
            try easy.set(CURLOPT_AWS_SIGV4, signature.provider)
            try easy.set(CURLOPT_USERNAME, signature.accessKeyID)
            try easy.set(CURLOPT_PASSWORD, signature.secretAccessKey)
            // The path is signed as sent: an object key's "." or ".." segments must not be resolved away.
            try easy.set(CURLOPT_PATH_AS_IS, 1)
        }
        try easy.setHeaders(spec.headers)
        switch spec.method {
        case .get: break
        case .head: try easy.set(CURLOPT_NOBODY, 1)
        default: try easy.set(CURLOPT_CUSTOMREQUEST, spec.method.rawValue)
        }
        if let body = spec.body {
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            // COPYPOSTFIELDS copies, so the Swift array need not outlive this call.
            let code = body.withUnsafeBytes { p in
                fg_easy_setopt_pointer(easy.raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: p.baseAddress))
            }
            try curlCheck(code, option: CURLOPT_COPYPOSTFIELDS.rawValue)
        }
        try curlCheck(fg_easy_setopt_write(easy.raw, curlWriteCallback), option: CURLOPT_WRITEFUNCTION.rawValue)
        try easy.set(CURLOPT_WRITEDATA, pointer: me)
        try curlCheck(fg_easy_setopt_header(easy.raw, curlHeaderCallback), option: CURLOPT_HEADERFUNCTION.rawValue)
        try easy.set(CURLOPT_HEADERDATA, pointer: me)
        try curlCheck(fg_easy_setopt_xferinfo(easy.raw, curlProgressCallback), option: CURLOPT_XFERINFOFUNCTION.rawValue)
        try easy.set(CURLOPT_XFERINFODATA, pointer: me)
        try easy.set(CURLOPT_NOPROGRESS, 0)
        try installAddressGuard(me)
    }

    // MARK: callbacks (multi-loop thread)

    fileprivate func onHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        // A server that never ends its header block must not hold us until the deadline or fill memory.
        headerBytes += line.count
        if headerBytes > Self.maxHeaderBytes {
            return abort(.invalidResponse("headers larger than \(Self.maxHeaderBytes) bytes"))
        }
        guard parser.feed(line), let head = parser.head else { return true }
        // Only a 2xx block is final for certain before its body: 1xx and followed 3xx blocks are followed by
        // another block. Other statuses are settled at the first body byte or at completion.
        guard (200..<300).contains(head.status), !bodyBegun else { return true }
        finalHead = head
        bodyBegun = true
        // Two different lengths mean no length can be trusted (a request-smuggling classic): refuse.
        let lengths = Set(head.headers.fields.filter { $0.name.equalsIgnoringASCIICase("Content-Length") }.map(\.value))
        if lengths.count > 1 {
            return abort(.invalidResponse("conflicting Content-Length values \(lengths.sorted())"))
        }
        // Refused before any body byte is read: a 50 GB Content-Length never starts streaming.
        if spec.method != .head, let declared = head.contentLength, declared > spec.maxBodyBytes {
            return abort(.bodyTooLarge(limit: spec.maxBodyBytes, declared: declared))
        }
        switch sink.begin(head) {
        case .abort(let reason): return abort(reason)
        case .accept(let sniff): if sniff && spec.sniffImage { sniffPrefix = [] }
        }
        return true
    }

    fileprivate func onBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if abortReason != nil { return false }
        if !bodyBegun {
            bodyBegun = true
            finalHead = parser.head
        }
        guard let head = finalHead, (200..<300).contains(head.status) else {
            // Non-2xx body: keep a bounded copy for the error, drop the rest (and redirect bodies entirely).
            if !(300..<400).contains(finalHead?.status ?? 0) {
                errorBody.append(contentsOf: bytes.prefix(max(0, 65_536 - errorBody.count)))
            }
            return true
        }
        if sniffPrefix != nil {
            // A first chunk long enough is judged where it lies: copying it (often the whole photo) into
            // the prefix would cost an allocation and a copy of the body.
            if sniffPrefix!.isEmpty && bytes.count >= ImageSignature.bytesNeeded {
                sniffPrefix = nil
                return deliverIfImage(bytes)
            }
            sniffPrefix!.append(contentsOf: bytes)
            if sniffPrefix!.count < ImageSignature.bytesNeeded { return true }
            return flushSniffed()
        }
        return deliver(bytes)
    }

    private func flushSniffed() -> Bool {
        guard let prefix = sniffPrefix else { return true }
        sniffPrefix = nil
        return prefix.withUnsafeBytes { deliverIfImage($0) }
    }

    /// Delivers the body's first bytes when they start with an image signature; otherwise ends the transfer,
    /// saying what they are instead (from their first 1 KB, all that ``ImageSignature/describe(_:)`` reads).
    private func deliverIfImage(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard ImageSignature.detect(bytes) != nil else {
            return abort(.notAnImage(prefix: ImageSignature.describe(Array(bytes.prefix(1024)))))
        }
        return deliver(bytes)
    }

    private func deliver(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bodyStartNanos == 0 { bodyStartNanos = DispatchTime.now().uptimeNanoseconds }
        bodyBytes += Int64(bytes.count)
        if bodyBytes > spec.maxBodyBytes {
            return abort(.bodyTooLarge(limit: spec.maxBodyBytes, declared: finalHead?.contentLength))
        }
        if let reason = sink.write(bytes) { return abort(reason) }
        if let onProgress {
            // Throttled to ~20 per second per transfer: progress is for humans, not for every 16 KB chunk.
            let now = DispatchTime.now().uptimeNanoseconds
            if now - lastProgressNanos > 50_000_000 {
                lastProgressNanos = now
                onProgress(sink.progressBase + bodyBytes, sink.expectedTotal)
            }
        }
        return true
    }

    func abort(_ reason: TransferError.Reason) -> Bool {
        if abortReason == nil { abortReason = reason }
        return false
    }

    /// Called from libcurl's progress callback, often while data flows and about once a second when idle.
    fileprivate func shouldStop(transferred: Int64) -> Bool {
        if cancelled.load(ordering: .relaxed) {
            _ = abort(.cancelled)
            return true
        }
        // Our own low-speed check: libcurl's averages the last ~5 s, so a stall after a fast start takes
        // window + 5 s to notice; this one measures the configured window itself.
        let now = DispatchTime.now().uptimeNanoseconds
        if spec.lowSpeedLimit > 0, spec.lowSpeedSeconds > 0,
           speedWindow.isTooSlow(bytes: transferred, now: now, limit: spec.lowSpeedLimit, seconds: spec.lowSpeedSeconds) {
            _ = abort(.tooSlow(bytesPerSecond: spec.lowSpeedLimit, seconds: spec.lowSpeedSeconds))
            return true
        }
        if spec.endsBodiesThatCannotFinish, let reason = missedDeadline(now: now) {
            _ = abort(reason)
            return true
        }
        return false
    }

    private func missedDeadline(now: UInt64) -> TransferError.Reason? {
        if startNanos == 0 { startNanos = now }
        guard bodyStartNanos > 0, let length = finalHead?.contentLength else { return nil }
        return DeadlineProjection(timeoutSeconds: Double(spec.timeoutMilliseconds) / 1000,
                                  windowSeconds: Double(spec.lowSpeedSeconds))
            .reason(now: now, start: startNanos, bodyStart: bodyStartNanos, bodyBytes: bodyBytes, length: length)
    }

    /// Called by the loop once libcurl is done with this handle (already removed from the multi handle).
    func finish(_ code: CURLcode, overrideReason: TransferError.Reason? = nil) {
        if let overrideReason { _ = abort(overrideReason) }
        if code == CURLE_OK, abortReason == nil {
            if finalHead == nil { finalHead = parser.head }
            // A body shorter than the sniff window is judged on what arrived.
            if sniffPrefix != nil { _ = flushSniffed() }
        }
        if let onProgress, bodyBytes > 0 { onProgress(sink.progressBase + bodyBytes, sink.expectedTotal) }
        let outcome = AttemptOutcome(
            code: code,
            curlMessage: code == CURLE_OK ? nil : (easy.errorText ?? CurlRuntime.describe(code)),
            head: finalHead ?? parser.head,
            abortReason: abortReason,
            bodyBytes: bodyBytes,
            errorBody: errorBody,
            effectiveURL: easy.info(string: CURLINFO_EFFECTIVE_URL),
            metrics: AttemptMetrics(easy)
        )
        let c = continuation
        continuation = nil
        c?.resume(returning: outcome)
    }
}

// C callbacks: no captures, so they convert to @convention(c); the transfer arrives through Unmanaged.

private let curlWriteCallback: curl_write_callback = { ptr, size, count, user in
    let t = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
    let n = size * count
    return t.onBody(UnsafeRawBufferPointer(start: ptr, count: n)) ? n : 0
}

private let curlHeaderCallback: curl_write_callback = { ptr, size, count, user in
    let t = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
    let n = size * count
    return t.onHeaderLine(UnsafeRawBufferPointer(start: ptr, count: n)) ? n : 0
}

private let curlProgressCallback: curl_xferinfo_callback = { user, _, downloaded, _, uploaded in
    let t = Unmanaged<CurlTransfer>.fromOpaque(user!).takeUnretainedValue()
    // Bytes sent count as progress: an upload still sending its body (a PUT to an object store on a
    // slow link) is not stalled.
    return t.shouldStop(transferred: Int64(downloaded) + Int64(uploaded)) ? 1 : 0
}
