import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// `ImagePipeline.Configuration.addressPolicy`: a pipeline that fetches URLs named by others (a thumbnail
/// service) refuses every address that is not public, judged on the address connected to, not the URL text.
@Suite struct PipelineAddressTests {
    @Test func publicOnlyRefusesEveryNonPublicAddressBeforeConnecting() async throws {
        let bytes = try Corpus.bytes(APIKit.uprightPhoto)
        let server = try APIKit.server(serving: bytes)
        let pipeline = APIKit.pipeline { $0.addressPolicy = .publicOnly }
        let port = server.port
        // Loopback by number, by name, by a decimal integer and by IPv6 / IPv4-mapped IPv6; the
        // unspecified address (this machine on Linux); link-local with the cloud metadata service;
        // private ranges in both families.
        let cases: [(String, String)] = [
            ("http://127.0.0.1:\(port)/photo.jpg", "loopback"), ("http://localhost:\(port)/photo.jpg", "loopback"),
            ("http://2130706433:\(port)/photo.jpg", "loopback"), ("http://[::1]:\(port)/photo.jpg", "loopback"),
            ("http://[::ffff:127.0.0.1]:\(port)/photo.jpg", "loopback"),
            ("http://0.0.0.0:\(port)/photo.jpg", "unspecified"), ("http://[::]:\(port)/photo.jpg", "unspecified"),
            ("http://169.254.169.254/latest/meta-data/", "link-local"), ("http://[fe80::1]/x.jpg", "link-local"),
            ("http://10.1.2.3/x.jpg", "private"), ("http://172.16.0.1/x.jpg", "private"),
            ("http://192.168.0.1/x.jpg", "private"), ("http://[fd00::1]/x.jpg", "private"),
            ("http://[::ffff:10.0.0.1]/x.jpg", "private"),
        ]
        for (url, kind) in cases {
            let error = await #expect(throws: ImagePipelineError.self) { _ = try await pipeline.image(url: url) }
            guard case .addressRefused(let refusal)? = error?.transferError?.reason else {
                Issue.record("\(url): \(String(describing: error))")
                continue
            }
            #expect(refusal.addressClass.rawValue == kind, "\(url): \(refusal)")
            #expect(error?.description.contains(url) == true, "\(String(describing: error))")
        }
        #expect(server.requests(path: "/photo.jpg").isEmpty, "a refused address was reached")
    }

    /// The default stays unrestricted: a program's own pipeline may read from this machine.
    @Test func theDefaultPolicyStillFetchesLoopback() async throws {
        let bytes = try Corpus.bytes(APIKit.uprightPhoto)
        let server = try APIKit.server(serving: bytes)
        let image = try await APIKit.pipeline().image(url: server.url("/photo.jpg"), size: .longestEdge(64))
        #expect(image.width == 64)
        #expect(server.requests(path: "/photo.jpg").count == 1)
    }
}
