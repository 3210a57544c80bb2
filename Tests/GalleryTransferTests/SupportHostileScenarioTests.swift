import Foundation
import GalleryTestSupport
import Testing

/// Pins what each hostile scenario puts on the wire, using curl 7.88 as the reference client:
/// the exit code curl gives is the failure the engine must also detect (with its own typed error).
@Suite struct SupportHostileScenarioTests {
    static func photo() throws -> [UInt8] { try TestPhotos.photo("exif-orientation/Landscape_3.jpg").bytes }

    /// curl arguments for each scenario, and the curl exit code they lead to.
    static func expectation(_ scenario: HostileScenario) -> (arguments: [String], exitCode: Int32) {
        switch scenario {
        case .truncatedBody, .lyingContentLength: ([], 18)
        case .connectionReset: ([], 56)
        case .emptyReply: ([], 52)
        case .stalledBody, .stalledHeaders: (["-m", "2"], 28)
        case .slowDrip: (["--speed-limit", "1000", "--speed-time", "1"], 28)
        case .hugeContentLength: (["--max-filesize", "10000000"], 63)
        // curl 7.88 uses the last value and then reports a partial file; RFC 9112 section 6.3
        // says a client should treat differing values as an unrecoverable error.
        case .conflictingContentLengths: ([], 18)
        case .gzipBomb, .htmlAsJPEG, .captivePortal, .emptyBody, .rangeIgnored: ([], 0)
        case .changedBetweenAttempts: ([], 18)
        case .redirectLoop: (["-L", "--max-redirs", "5"], 47)
        case .redirectToFile: (["-L"], 1)
        case .redirectToClosedPort: (["-L"], 7)
        case .wrongContentRange: (["-C", "1000"], 33)
        case .serviceUnavailable, .tooManyRequests: (["--retry", "3"], 0)
        case .notFound, .serverError: (["-f"], 22)
        case .endlessHeaders: ([], 56)
        case .garbageResponse: ([], 1)
        }
    }

    @Test(arguments: HostileScenario.allCases)
    func curlSeesTheScenario(scenario: HostileScenario) throws {
        let server = try FaultServer()
        scenario.install(on: server, path: "/photo.jpg", payload: try Self.photo())
        let (arguments, exitCode) = Self.expectation(scenario)
        let result = try Curl.run(arguments + [server.url("/photo.jpg")], timeout: 30)
        #expect(result.exitCode == exitCode, "\(scenario): \(scenario.summary)\ncurl: \(result.stderr)")
        #expect(result.duration < 15, "\(scenario) took \(result.duration) s")
        try checkDetails(scenario, result, server)
    }

    private func checkDetails(_ scenario: HostileScenario, _ result: CurlResult, _ server: FaultServer) throws {
        let photo = try Self.photo()
        switch scenario {
        case .truncatedBody:
            #expect(result.body == Array(photo.prefix(photo.count / 2)))
        case .hugeContentLength:
            #expect(result.body.isEmpty)  // refused from the header alone
        case .gzipBomb:
            #expect(result.headers["Content-Encoding"] == "gzip")
            #expect(result.body.count < 1_100_000)  // small on the wire; inflates to 1 GiB
        case .htmlAsJPEG:
            #expect(result.headers["Content-Type"] == "image/jpeg")
            #expect(result.body.starts(with: Array("<!DOCTYPE html>".utf8)))
        case .captivePortal:
            // curl takes the login page as the file; the third request gets the photo.
            #expect(result.headers["Content-Type"] == "text/html")
            #expect(result.body.starts(with: Array("<!DOCTYPE html>".utf8)))
            _ = try Curl.run([server.url("/photo.jpg")])
            #expect(try Curl.run([server.url("/photo.jpg")]).body == photo)
        case .emptyBody:
            #expect(result.status == 200 && result.body.isEmpty)
        case .redirectLoop:
            #expect(server.requests(path: "/photo.jpg").count == 6)
        case .rangeIgnored:
            let ranged = try Curl.run(["-r", "1000-", server.url("/photo.jpg")])
            #expect(ranged.status == 200)
            #expect(ranged.body == photo)
        case .changedBetweenAttempts:
            // The first attempt was cut; resuming with the old ETag gets the new content whole.
            #expect(result.headers["ETag"] == "\"v1\"")
            let second = try Curl.run(["-r", "\(photo.count / 2)-", "-H", "If-Range: \"v1\"", server.url("/photo.jpg")])
            #expect(second.status == 200)
            #expect(second.headers["ETag"] == "\"v2\"")
            #expect(second.body == Array(photo.reversed()))
        case .serviceUnavailable:
            #expect(server.requests(path: "/photo.jpg").count == 3)
            #expect(result.duration >= 2)  // curl honoured Retry-After: 1 twice
            #expect(result.body == photo)
        case .tooManyRequests:
            #expect(server.requests(path: "/photo.jpg").count == 2)
            #expect(result.duration >= 1)
        default:
            break
        }
    }

    @Test func everyScenarioHasASummary() {
        for scenario in HostileScenario.allCases { #expect(scenario.summary.count > 20, "\(scenario)") }
    }
}
