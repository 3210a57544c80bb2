import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// Every broken server of the shared catalogue against the real engine: each ends quickly in the right typed
/// error or a byte-exact file, never a hang, a splice or a complete-looking partial.
@Suite struct HostileScenarioDownloadTests {
    /// What a careful client makes of each scenario.
    enum Expected {
        case file
        case failure((TransferError.Reason) -> Bool)
    }

    static func expected(_ s: HostileScenario) -> Expected {
        switch s {
        case .truncatedBody, .connectionReset, .rangeIgnored, .changedBetweenAttempts, .serviceUnavailable, .tooManyRequests,
             .captivePortal:
            return .file
        case .emptyReply: return .failure { if case .network = $0 { true } else { false } }
        case .stalledBody, .stalledHeaders, .slowDrip: return .failure { $0 == .tooSlow(bytesPerSecond: 1000, seconds: 1) || $0 == .timedOut }
        case .lyingContentLength: return .failure { if case .truncatedBody = $0 { true } else { false } }
        case .hugeContentLength: return .failure { $0 == .bodyTooLarge(limit: 16 << 20, declared: 53_687_091_200) }
        // Zeros have no image signature, so sniffing stops the bomb even before the cap does.
        case .gzipBomb: return .failure {
            switch $0 {
            case .bodyTooLarge, .notAnImage: true
            default: false
            }
        }
        case .conflictingContentLengths, .garbageResponse, .endlessHeaders:
            return .failure { if case .invalidResponse = $0 { true } else { false } }
        case .htmlAsJPEG: return .failure { if case .notAnImage(let what) = $0 { what.hasPrefix("HTML text") } else { false } }
        case .emptyBody: return .failure { $0 == .notAnImage(prefix: "an empty body") }
        case .redirectLoop: return .failure { $0 == .tooManyRedirects(limit: 5) }
        case .redirectToFile: return .failure { $0 == .redirectRefused }
        case .redirectToClosedPort: return .failure { $0 == .connectionFailed }
        case .wrongContentRange: return .failure { if case .resumeRejected = $0 { true } else { false } }
        case .notFound: return .failure { $0 == .httpStatus(404) }
        case .serverError: return .failure { $0 == .httpStatus(500) }
        }
    }

    @Test(arguments: HostileScenario.allCases)
    func scenario(_ scenario: HostileScenario) async throws {
        let server = try FaultServer()
        let payload = Kit.jpeg(200_000, seed: 21)
        scenario.install(on: server, path: "/x.jpg", payload: payload)
        let dir = try TempDirectory()
        let dest = dir.file("x.jpg")
        let engine = Kit.engine {
            $0.deadline = 8
            $0.lowSpeedWindow = 1
            $0.maxBodyBytes = 16 << 20
        }
        // The changed file is the payload reversed, which has no image signature.
        let request = DownloadRequest(url: server.url("/x.jpg"), destination: dest,
                                      expectImage: scenario != .changedBetweenAttempts)
        let start = Date()
        let outcome: Result<DownloadResult, TransferError> = await Kit.offPool {
            do throws(TransferError) { return .success(try await engine.download(request)) } catch { return .failure(error) }
        }
        let elapsed = Date().timeIntervalSince(start)
        // The stalls last 600 s; the margin over the 8 s deadline absorbs a heavily loaded machine (and a
        // sanitizer's slowdown).
        #expect(elapsed < Sanitizer.bound(30, below: 600), "\(scenario) took \(elapsed) s")
        switch (Self.expected(scenario), outcome) {
        case (.file, .success):
            if scenario == .captivePortal { #expect(server.requests(path: "/x.jpg").count == 3) }
            let want = scenario == .changedBetweenAttempts ? Array(payload.reversed()) : payload
            #expect(Kit.read(dest) == want, "\(scenario): file differs")
        case (.failure(let matches), .failure(let error)):
            #expect(matches(error.reason), "\(scenario): \(error)")
            #expect(!Kit.exists(dest), "\(scenario): a file was published")
            #expect(error.url == server.url("/x.jpg"))
            if case .notAnImage = error.reason {
                // Retried like a transient fault (a login wall may let a later attempt through), then given up.
                #expect(error.attempts == engine.configuration.retry.maxAttempts, "\(scenario): \(error)")
                #expect(!Kit.exists(dest + ".part") && !Kit.exists(dest + ".part.meta"), "\(scenario): partial kept")
            }
        case (_, .success):
            Issue.record("\(scenario): expected a failure, got a file")
        case (_, .failure(let error)):
            Issue.record("\(scenario): expected a file, got \(error)")
        }
    }
}
