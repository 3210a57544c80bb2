import Foundation
import GalleryTestSupport
import GalleryTestTraits
import Testing
@testable import GalleryObjectStore

/// Wrong keys, a missing bucket and a store that answers 503 for a while, against the real gateway.
@Suite(.gatewayStarted) struct S3FailureTests {
    @Test func wrongKeysFailAtOnceNamingTheBucketNotTheSecret() async throws {
        let gateway = try S3TestKit.gateway()
        let proxy = try S3TestKit.proxy()
        let wrongSecret = S3Credentials(accessKeyID: gateway.accessKey, secretAccessKey: "not-the-secret-0123456789")
        let unknownKey = S3Credentials(accessKeyID: "AKIAUNKNOWN", secretAccessKey: gateway.secretKey)
        for credentials in [wrongSecret, unknownKey] {
            let client = try S3TestKit.client(proxy: proxy, credentials: credentials)
            proxy.resetSeen()
            let error = await #expect(throws: S3Error.self) { try await client.checkBucket() }
            guard case .accessDenied(let bucket, nil, let code)? = error else {
                Issue.record("expected access denied, got \(String(describing: error))")
                continue
            }
            #expect(bucket == client.bucket && ["SignatureDoesNotMatch", "InvalidAccessKeyId"].contains(code))
            let message = "\(error!)"
            #expect(message.contains("s3://\(client.bucket)") && message.contains("access denied"))
            #expect(!message.contains(credentials.secretAccessKey) && !message.contains(gateway.secretKey))
            #expect(proxy.seen.count == 1, "retried: \(proxy.seen)")
            #expect(error?.isConfigurationError == true)
        }
    }

    @Test func aMissingBucketFailsAtOnce() async throws {
        let proxy = try S3TestKit.proxy()
        let client = try S3TestKit.client(bucket: "fg-no-such-bucket-here", proxy: proxy)
        let error = await #expect(throws: S3Error.self) { try await client.checkBucket() }
        #expect(error == .noSuchBucket(bucket: "fg-no-such-bucket-here"))
        #expect("\(error!)".contains("s3://fg-no-such-bucket-here: no such bucket"))
        #expect(proxy.seen.count == 1, "\(proxy.seen)")
        let put = await #expect(throws: S3Error.self) {
            try await client.put(key: "k", body: [1], contentType: "text/plain")
        }
        #expect(put == .noSuchBucket(bucket: "fg-no-such-bucket-here"))
    }

    /// Three 503 SlowDown answers, then the gateway: the PUT is retried with backoff and lands.
    @Test func slowDownIsRetriedUntilTheStoreRecovers() async throws {
        let proxy = try S3TestKit.proxy()
        let client = try S3TestKit.client(proxy: proxy)
        proxy.fail(next: 2, status: 503, code: "SlowDown", method: "PUT")
        proxy.fail(next: 1, status: 500, code: "InternalError", method: "PUT")
        let body = S3TestKit.bytes(50_000)
        #expect(try await client.put(key: "slow/1", body: body, contentType: "image/jpeg") == .created)
        let puts = proxy.seen.filter { $0.method == "PUT" }
        #expect(puts.map(\.injected) == [503, 503, 500, nil], "\(puts)")
        #expect(try await client.get(key: "slow/1") == Data(body))
    }

    /// A store that keeps answering 503 gives up after the policy's attempts, naming the key and the status.
    @Test func slowDownThroughEveryAttemptFailsNamingTheKey() async throws {
        let proxy = try S3TestKit.proxy()
        let client = try S3TestKit.client(proxy: proxy)
        proxy.fail(next: 100, status: 503, code: "SlowDown", method: "PUT")
        let error = await #expect(throws: S3Error.self) {
            try await client.put(key: "slow/2", body: [1, 2, 3], contentType: "text/plain")
        }
        guard case .transfer(_, "slow/2", "PUT", _, 503)? = error else {
            Issue.record("expected a transfer error with 503, got \(String(describing: error))")
            return
        }
        #expect("\(error!)".contains("s3://\(client.bucket)/slow/2: PUT failed"))
        #expect(proxy.seen.count == 5)
    }
}

