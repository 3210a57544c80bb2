// libFuzzer target: the HTTP response handling that decides between resuming a partial and starting
// over. The input is text: the first line describes what is on disk, the rest is a raw response
// head fed line by line to the same HeadParser libcurl's header callback feeds.
//
//   line 1: "R OFFSET EXPECTED E|L VALIDATOR"  a partial of OFFSET bytes whose sidecar holds an ETag (E)
//           or Last-Modified (L) and EXPECTED length ("-" for unknown); anything else: no partial
//   line 2...: "HTTP/1.1 206 Partial Content", "Content-Range: bytes 10-99/100", "ETag: \"x\"", ...
//
// Invariants: the plan never resumes what the sidecar cannot vouch for; a decision is deterministic;
// "append" only for a 206 whose Content-Range starts exactly at the partial's end, with no content
// coding, no changed strong ETag and a total beyond the partial; "alreadyComplete" only for a 416
// whose total equals the partial; lengths are never negative; Content-Range parses only into a
// consistent range; Retry-After gives a finite, non-negative wait within the policy's cap.
@testable import GalleryTransfer
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResume(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    guard !lines.isEmpty else { return 0 }
    let planLine = String(decoding: lines.removeFirst(), as: UTF8.self)
    let url = "http://127.0.0.1/photo.jpg"
    let local = localPartial(planLine, url: url)
    let plan = ResumePlan.make(local: local, url: url)
    checkPlan(plan, local: local, url: url)

    var parser = HeadParser()
    for line in lines {
        let raw = Array(line) + [0x0D, 0x0A]
        _ = raw.withUnsafeBytes { parser.feed($0) }
    }
    guard let head = parser.head else { return 0 }
    checkHeaders(head)
    let decision = ResumeDecision.decide(plan: plan, status: head.status, headers: head.headers)
    require(decision == ResumeDecision.decide(plan: plan, status: head.status, headers: head.headers),
            "decision is not deterministic")
    checkDecision(decision, plan: plan, head: head)
    return 0
}

/// The partial described by the first line, or nil.
func localPartial(_ line: String, url: String) -> LocalPartial? {
    let f = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
    guard f.count == 5, f[0] == "R", let offset = Int64(f[1]) else { return nil }
    let validator: Validator? = switch f[3] {
    case "E": .etag(f[4])
    case "L": .lastModified(f[4])
    default: nil
    }
    let sidecar = Sidecar(url: url, validator: validator, expectedLength: Int64(f[2]))
    return LocalPartial(sidecar: sidecar, partSize: offset)
}

func checkPlan(_ plan: ResumePlan, local: LocalPartial?, url: String) {
    guard case .resume(let from, let validator) = plan else {
        require(plan.offset == 0, "fresh plan with offset \(plan.offset)")
        return
    }
    guard let local, let sidecar = local.sidecar else { return require(false, "resume without a partial") }
    require(sidecar.url == url, "resume of another URL's partial")
    require(from == local.partSize && from > 0, "resume from \(from) of a \(local.partSize)-byte partial")
    require(sidecar.validator == validator, "resume with a validator the sidecar does not hold")
    if let expected = sidecar.expectedLength { require(from <= expected, "resume beyond the expected length") }
}

func checkHeaders(_ head: ResponseHead) {
    if let value = head.headers["Content-Range"], let range = ContentRange(value) {
        require((range.start == nil) == (range.end == nil), "half a range from \(value.debugDescription)")
        if let s = range.start, let e = range.end { require(0 <= s && s <= e, "range \(s)-\(e)") }
        if let t = range.total { require(t >= 0, "negative total") }
        if let e = range.end, let t = range.total { require(e < t, "range end \(e) not below total \(t)") }
        require(range.start != nil || range.total != nil, "empty range from \(value.debugDescription)")
    }
    if case .etag(let tag)? = Validator.from(head.headers) {
        require(!tag.isEmpty && !tag.hasPrefix("W/"), "weak or empty ETag \(tag.debugDescription) trusted")
    }
    if let length = head.contentLength { require(length >= 0, "negative Content-Length \(length)") }
    if let value = head.headers["Retry-After"] {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        if let seconds = RetryPolicy.parseRetryAfter(value, now: now) {
            require(seconds.isFinite && seconds >= 0, "Retry-After \(value.debugDescription) gave \(seconds)")
        }
        let policy = RetryPolicy()
        let wait = policy.delay(afterAttempt: 3, retryAfter: value, now: now, random: { $0.upperBound })
        require(wait.isFinite && wait >= 0 && wait <= max(policy.maxRetryAfter, policy.maxBackoff),
                "wait \(wait) for Retry-After \(value.debugDescription)")
    }
}

func checkDecision(_ decision: ResumeDecision, plan: ResumePlan, head: ResponseHead) {
    let status = head.status
    let encoding = head.headers["Content-Encoding"]
    let encoded = encoding.map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
    switch decision {
    case .append(let offset, let expected):
        require(status == 206, "append on status \(status)")
        guard case .resume(let from, let ours) = plan else { return require(false, "append without a resume plan") }
        require(offset == from, "append at \(offset), partial has \(from)")
        let range = head.headers["Content-Range"].flatMap(ContentRange.init)
        require(range?.start == from, "append with Content-Range \(String(describing: head.headers["Content-Range"]))")
        require(!encoded, "append of a body with Content-Encoding \(encoding ?? "")")
        if let expected { require(expected > offset, "append at \(offset) to a file of \(expected) bytes") }
        if case .etag(let theirs)? = Validator.from(head.headers), case .etag(let mine) = ours {
            require(theirs == mine, "append across an ETag change \(mine) -> \(theirs)")
        }
    case .alreadyComplete(let length):
        require(status == 416, "alreadyComplete on status \(status)")
        require(plan.offset == length && length > 0, "alreadyComplete \(length) for a partial of \(plan.offset)")
    case .writeFromStart(let length, let validator):
        require((200..<300).contains(status) && status != 206, "writeFromStart on status \(status)")
        if let length { require(length >= 0, "negative expected length \(length)") }
        if encoded { require(length == nil && validator == nil, "length or validator trusted under a content coding") }
        if case .etag(let tag)? = validator { require(!tag.hasPrefix("W/"), "weak ETag kept as validator") }
    case .restart(let reason):
        require(status == 206 || status == 416, "restart on status \(status)")
        require(!reason.isEmpty, "restart without a reason")
        if status == 416 { require(plan != .fresh, "restart of a fresh request on 416") }
    case .notApplicable:
        require(!(200..<300).contains(status) || status == 416, "2xx \(status) not applicable")
    }
}
