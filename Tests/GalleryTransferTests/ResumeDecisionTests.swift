import Testing
@testable import GalleryTransfer

/// The resume logic as a pure function of (local state, status, headers): no network.
@Suite struct ResumeDecisionTests {
    let strong = Validator.etag("\"v1\"")
    let url = "http://127.0.0.1/a.jpg"

    func local(_ size: Int64, validator: Validator? = .etag("\"v1\""), url: String? = nil, expected: Int64? = 1000) -> LocalPartial {
        LocalPartial(sidecar: Sidecar(url: url ?? self.url, validator: validator, expectedLength: expected), partSize: size)
    }

    @Test func validatorPrefersStrongETagAndRejectsWeak() {
        #expect(Validator.from(["ETag": "\"a\""]) == .etag("\"a\""))
        #expect(Validator.from(["ETag": "W/\"a\"", "Last-Modified": "Tue, 14 Nov 2023 22:13:20 GMT"]) == nil)
        #expect(Validator.from(["Last-Modified": "Tue, 14 Nov 2023 22:13:20 GMT"]) == .lastModified("Tue, 14 Nov 2023 22:13:20 GMT"))
        #expect(Validator.from([:]) == nil)
    }

    @Test func planResumesOnlyTrustedMatchingPartials() {
        #expect(ResumePlan.make(local: nil, url: url) == .fresh)
        #expect(ResumePlan.make(local: local(500), url: url) == .resume(from: 500, validator: strong))
        #expect(ResumePlan.make(local: local(0), url: url) == .fresh)
        #expect(ResumePlan.make(local: local(500, validator: nil), url: url) == .fresh)
        #expect(ResumePlan.make(local: local(500, url: "http://127.0.0.1/other"), url: url) == .fresh)
        #expect(ResumePlan.make(local: local(1500), url: url) == .fresh)
        #expect(ResumePlan.make(local: LocalPartial(sidecar: nil, partSize: 500), url: url) == .fresh)
    }

    @Test(arguments: [
        ("bytes 0-99/100", Int64?(0), Int64?(99), Int64?(100)),
        ("bytes 500-999/*", 500, 999, nil),
        ("bytes */1000", nil, nil, 1000),
    ])
    func contentRangeParses(_ text: String, _ start: Int64?, _ end: Int64?, _ total: Int64?) {
        let r = ContentRange(text)
        #expect(r?.start == start && r?.end == end && r?.total == total)
    }

    @Test(arguments: ["bytes */*", "bytes 5-1/10", "items 0-1/2", "bytes 0-1", ""])
    func contentRangeRejectsGarbage(_ text: String) {
        #expect(ContentRange(text) == nil)
    }

    @Test func matching206Appends() {
        let plan = ResumePlan.resume(from: 500, validator: strong)
        let d = ResumeDecision.decide(plan: plan, status: 206, headers: ["Content-Range": "bytes 500-999/1000", "ETag": "\"v1\""])
        #expect(d == .append(offset: 500, expectedLength: 1000))
    }

    @Test func misplaced206Restarts() {
        let plan = ResumePlan.resume(from: 500, validator: strong)
        let d = ResumeDecision.decide(plan: plan, status: 206, headers: ["Content-Range": "bytes 0-999/1000"])
        guard case .restart = d else { Issue.record("expected restart, got \(d)"); return }
    }

    @Test func changedETagOn206IsNeverSpliced() {
        let plan = ResumePlan.resume(from: 500, validator: strong)
        let d = ResumeDecision.decide(plan: plan, status: 206, headers: ["Content-Range": "bytes 500-999/1000", "ETag": "\"v2\""])
        guard case .restart = d else { Issue.record("expected restart, got \(d)"); return }
    }

    @Test func fullResponseToARangeStartsOver() {
        let plan = ResumePlan.resume(from: 500, validator: strong)
        let d = ResumeDecision.decide(plan: plan, status: 200, headers: ["Content-Length": "1200", "ETag": "\"v2\""])
        #expect(d == .writeFromStart(expectedLength: 1200, validator: .etag("\"v2\"")))
    }

    @Test func unsatisfiableRangeKeepsOnlyAnExactPartial() {
        let exact = ResumeDecision.decide(plan: .resume(from: 1000, validator: strong), status: 416,
                                          headers: ["Content-Range": "bytes */1000"])
        #expect(exact == .alreadyComplete(length: 1000))
        let over = ResumeDecision.decide(plan: .resume(from: 1100, validator: strong), status: 416,
                                         headers: ["Content-Range": "bytes */1000"])
        guard case .restart = over else { Issue.record("expected restart, got \(over)"); return }
        let noTotal = ResumeDecision.decide(plan: .resume(from: 1000, validator: strong), status: 416, headers: [:])
        guard case .restart = noTotal else { Issue.record("expected restart, got \(noTotal)"); return }
    }

    @Test func freshRequestsNeverAppend() {
        #expect(ResumeDecision.decide(plan: .fresh, status: 416, headers: ["Content-Range": "bytes */10"]) == .notApplicable)
        guard case .restart = ResumeDecision.decide(plan: .fresh, status: 206, headers: ["Content-Range": "bytes 0-9/10"]) else {
            Issue.record("a 206 to a request without Range must not be trusted"); return
        }
        #expect(ResumeDecision.decide(plan: .fresh, status: 404, headers: [:]) == .notApplicable)
    }
}
