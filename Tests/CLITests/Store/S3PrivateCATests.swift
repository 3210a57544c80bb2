import Foundation
import GalleryTestSupport
import GalleryTestTraits
import Testing

/// A store behind https under a private CA (nginx with a test authority's certificate in front of the
/// RADOS Gateway): `dataset` and `merge`, which open the store on connections of their own, trust it
/// with `--ca-certificates` as `run` and `plan` do, and refuse it without, naming the certificate.
@Suite(.serialized, .gatewayStarted) struct S3PrivateCATests {
    /// nginx on https, passing every request for `bucket` on to the gateway as it came (the signed Host too).
    static func front(_ s3: S3CLIKit, authority: TestCertificateAuthority, root: String) throws -> NginxServer {
        try NginxServer(root: root, extraServerDirectives: """
            location /\(s3.bucket) {
                proxy_pass http://127.0.0.1:\(s3.gateway.port);
                proxy_http_version 1.1;
                proxy_set_header Host $http_host;
                proxy_request_buffering off;
                client_max_body_size 0;
            }
            """, certificate: try authority.issue())
    }

    @Test func datasetAndMergeTrustAPrivateCAEndpointOnlyWithCACertificates() async throws {
        let s3 = try S3CLIKit()
        let authority = try TestCertificateAuthority()
        let root = try TempDirectory()
        let photos = try TestPhotos.writeGallery(count: 3, to: root)
        let nginx = try Self.front(s3, authority: authority, root: root.path)
        let endpoint = "https://127.0.0.1:\(nginx.port)"
        let work = try TempDirectory()
        let list = try work.write(Array(photos.map { nginx.url("/" + $0) }.joined(separator: "\n").utf8), to: "urls.txt")
        let dataset = ["dataset", "--url-list", list, "--input-format", "txt", "--output-format", "webdataset",
                       "--output-folder", "s3://\(s3.bucket)/ds/", "--s3-endpoint", endpoint, "--quiet"]

        let refused = try ProcessRunner.run(DownloadCLI.binary, dataset + ["--work-dir", work.file("w1")],
                                            environment: s3.environment(home: work.path), timeout: 120)
        #expect(refused.exitCode != 0)
        #expect(refused.stderrText.contains("certificate"), "\(refused.stderrText)")
        #expect(try s3.keys(under: "ds/").isEmpty)

        let trusted = try ProcessRunner.run(DownloadCLI.binary, dataset + ["--work-dir", work.file("w2"),
                                                                           "--ca-certificates", authority.certificatePath],
                                            environment: s3.environment(home: work.path), timeout: 120)
        #expect(trusted.exitCode == 0, "\(trusted.stderrText)")
        let stored = try s3.keys(under: "ds/")
        #expect(stored.contains("ds/00000.tar") && stored.contains("ds/00000_stats.json"), "\(stored)")

        // merge: the bucket answers through the front only with the authority; without it, the first
        // request fails on the certificate before anything is read.
        let merge = ["merge", "s3://\(s3.bucket)/g/", "--s3-endpoint", endpoint]
        let unverified = try ProcessRunner.run(GalleryCLIKit.binary, merge + ["--work-dir", work.file("m1")],
                                               environment: s3.environment(home: work.path), timeout: 120)
        #expect(unverified.exitCode != 0)
        #expect(unverified.stderrText.contains("certificate"), "\(unverified.stderrText)")
        let verified = try ProcessRunner.run(GalleryCLIKit.binary, merge + ["--work-dir", work.file("m2"),
                                                                            "--ca-certificates", authority.certificatePath],
                                             environment: s3.environment(home: work.path), timeout: 120)
        #expect(!verified.stderrText.contains("certificate"), "\(verified.stderrText)")
        #expect(nginx.accessLog().contains { $0.path.hasPrefix("/\(s3.bucket)") && $0.status == 200 })
    }
}
