import Foundation
import Testing
@testable import GalleryTransfer

/// Inputs the `resume` fuzz target (Fuzz/resume.swift) found, replayed through the same parse and
/// decision, with the invariants the harness checks. The files use the harness's format: line 1
/// describes the partial ("R OFFSET EXPECTED E|L VALIDATOR", anything else: none), the other lines
/// are a raw response head fed to HeadParser.
@Suite("Resume decision: fuzz regressions")
struct ResumeFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions")
    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
    }
    let url = "http://127.0.0.1/photo.jpg"

    @Test func regressionFilesExist() {
        #expect(Self.files.count >= 2)
    }

    @Test(arguments: files)
    func replays(_ file: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(file)))
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let plan = ResumePlan.make(local: partial(String(decoding: lines.removeFirst(), as: UTF8.self)), url: url)
        var parser = HeadParser()
        for line in lines { _ = (Array(line) + [0x0D, 0x0A]).withUnsafeBytes { parser.feed($0) } }
        guard let head = parser.head else { return }
        #expect(head.status == 0 || (100...999).contains(head.status))
        let decision = ResumeDecision.decide(plan: plan, status: head.status, headers: head.headers)
        if case .append(let offset, let expected) = decision {
            #expect(head.status == 206 && offset == plan.offset)
            #expect(head.headers["Content-Range"].flatMap(ContentRange.init)?.start == offset)
            if let expected { #expect(expected > offset) }
        }
        if case .writeFromStart(let length, _) = decision, let length { #expect(length >= 0) }
    }

    private func partial(_ line: String) -> LocalPartial? {
        let f = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
        guard f.count == 5, f[0] == "R", let offset = Int64(f[1]) else { return nil }
        let validator: Validator? = f[3] == "E" ? .etag(f[4]) : f[3] == "L" ? .lastModified(f[4]) : nil
        return LocalPartial(sidecar: Sidecar(url: url, validator: validator, expectedLength: Int64(f[2])), partSize: offset)
    }

    // The rules the findings led to, stated directly.

    @Test(arguments: ["bytes 100-1233/1233", "bytes 0-100/100", "bytes +1-5/10", "bytes 1-+5/10", "bytes 1-5/+10", "bytes -0-5/10"])
    func contentRangeRejects(_ text: String) {
        #expect(ContentRange(text) == nil)
    }

    @Test func lengthsAreDigitsOnly() {
        #expect(ResponseHead(status: 200, headers: ["Content-Length": "-1"]).contentLength == nil)
        #expect(ResponseHead(status: 200, headers: ["Content-Length": "+5"]).contentLength == nil)
        #expect(ResponseHead(status: 200, headers: ["Content-Length": " 42 "]).contentLength == 42)
        let decision = ResumeDecision.decide(plan: .fresh, status: 200, headers: ["Content-Length": "-1"])
        #expect(decision == .writeFromStart(expectedLength: nil, validator: nil))
    }

    @Test func codedPartialContentRestarts() {
        let plan = ResumePlan.resume(from: 100, validator: .etag("\"a\""))
        let headers: HTTPHeaders = ["Content-Range": "bytes 100-199/200", "Content-Encoding": "gzip", "ETag": "\"a\""]
        guard case .restart = ResumeDecision.decide(plan: plan, status: 206, headers: headers) else {
            Issue.record("a gzip-coded 206 was appended")
            return
        }
    }

    @Test(arguments: [("HTTP/1.1 20008174784388664859760", 0), ("HTTP/1.1 200 OK", 200), ("HTTP/2 206", 206),
                      ("HTTP/1.1 2000 OK", 0), ("HTTP/1.1 20 OK", 0), ("HTTP/1.1 404x", 0)])
    func statusLineIsThreeDigits(_ line: String, _ status: Int) {
        var parser = HeadParser()
        _ = Array((line + "\r\n").utf8).withUnsafeBytes { parser.feed($0) }
        #expect(parser.head?.status == status)
    }
}
