import Foundation
import GalleryTestSupport
import GallerySync
import Testing
@testable import GalleryTransfer

/// SigV4 as libcurl sends it for an `HTTPRequest` with `awsSignature` (the S3 tests check that a real
/// store accepts it): the headers signed, the token sent, the path kept, the secret never on the wire.
@Suite struct RequestAWSSignatureTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

    @Test func requestsAreSignedWithTheTokenAndWithoutTheSecret() async throws {
        let server = try FaultServer()
        let seen = Locked<[FaultServer.Request]>([])
        server.routeUnmatched { request, _ in
            seen.withLock { $0.append(request) }
            return .status(200, text: "ok")
        }
        let signature = AWSSignature(accessKeyID: "AKIDEXAMPLE", secretAccessKey: Self.secret,
                                     sessionToken: "SESSION-TOKEN", region: "eu-west-3")
        let query = AWSSignature.canonicalQuery([("uploadId", "a/b"), ("partNumber", "2")])
        var request = HTTPRequest(method: .put, url: server.url("/bucket/a/../b%20c.jpg?\(query)"),
                                  headers: ["Content-Type": "image/jpeg", "x-amz-content-sha256": "abc123"], body: [1, 2, 3])
        request.awsSignature = signature
        #expect(try await Kit.engine().request(request).string() == "ok")
        let arrived = try #require(seen.withLock { $0.first })
        // The path as signed: no ".." resolved away; the query as the caller spelled it.
        #expect(arrived.target == "/bucket/a/../b%20c.jpg?partNumber=2&uploadId=a%2Fb")
        let authorization = try #require(arrived.headers["Authorization"])
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"), "\(authorization)")
        #expect(authorization.contains("/eu-west-3/s3/aws4_request"), "\(authorization)")
        let signed = authorization.components(separatedBy: "SignedHeaders=").last?.split(separator: ",").first ?? ""
        for name in ["content-type", "host", "x-amz-content-sha256", "x-amz-date", "x-amz-security-token"] {
            #expect(signed.split(separator: ";").contains(Substring(name)), "\(name) not signed: \(authorization)")
        }
        #expect(arrived.headers["x-amz-security-token"] == "SESSION-TOKEN")
        #expect(arrived.headers["x-amz-date"]?.count == 16)
        let wire = arrived.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        #expect(!wire.contains(Self.secret) && !wire.lowercased().contains("basic "), "\(wire)")
    }

    @Test func theSecretIsRedactedInDescriptions() {
        let signature = AWSSignature(accessKeyID: "AKIDEXAMPLE", secretAccessKey: Self.secret, sessionToken: "SESSIONTOKEN-VALUE", region: "us-east-1")
        var dumped = ""
        dump(signature, to: &dumped)
        for text in ["\(signature)", String(reflecting: signature), dumped] {
            #expect(!text.contains(Self.secret) && !text.contains("SESSIONTOKEN-VALUE") && text.contains("AKIDEXAMPLE"), "\(text)")
        }
    }
}
