import Foundation
import GalleryTestSupport
import Testing

/// The real S3 store of the tests (Ceph's RADOS Gateway, one per test process) and what the `run`
/// and `merge` tests need around it: a fresh bucket, the keys in the environment, and the bucket's
/// objects read back with curl's own SigV4 (not the client under test).
struct S3CLIKit {
    let gateway: RadosGateway
    let bucket: String

    init() throws {
        gateway = try RadosGateway.shared()
        bucket = try gateway.makeBucket()
    }

    /// The keys as a run finds them; `secret` replaces the right secret key (wrong keys).
    func environment(secret: String? = nil, home: String) -> [String: String] {
        ["AWS_ACCESS_KEY_ID": gateway.accessKey, "AWS_SECRET_ACCESS_KEY": secret ?? gateway.secretKey,
         "AWS_REGION": gateway.region, "HOME": home, "XDG_CACHE_HOME": home + "/cache"]
    }

    /// `--out s3://BUCKET/PREFIX --s3-endpoint URL` (the gateway, or `endpoint`, e.g. a fault proxy).
    func out(_ prefix: String, endpoint: String? = nil) -> [String] {
        ["--out", "s3://\(bucket)/\(prefix)", "--s3-endpoint", endpoint ?? gateway.endpoint]
    }

    /// `count` shards of the run `arguments` at once into `s3://BUCKET/prefix`, each with a work folder of
    /// its own (`work(K)`, as on machines of their own); each must exit 0.
    func runShards(_ arguments: [String], count: Int, prefix: String, work: (Int) -> String, home: String,
                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let shards = try (0..<count).map { k in
            try ProcessRunner(GalleryCLIKit.binary, arguments + out(prefix) + ["--shard", "\(k)/\(count)", "--work-dir", work(k)],
                              environment: environment(home: home))
        }
        for (k, shard) in shards.enumerated() {
            let result = shard.wait(timeout: 180)
            #expect(result.exitCode == 0, "shard \(k): \(result.stderrText)", sourceLocation: sourceLocation)
        }
    }

    /// `fetch-gallery merge s3://BUCKET/prefix` working in `work`, with `arguments` more.
    func merge(_ prefix: String, work: String, home: String, _ arguments: [String] = []) throws -> ProcessResult {
        try ProcessRunner.run(GalleryCLIKit.binary, ["merge", "s3://\(bucket)/\(prefix)", "--s3-endpoint", gateway.endpoint,
                                                     "--work-dir", work] + arguments,
                              environment: environment(home: home), timeout: 120)
    }

    /// Every key under `prefix` (ListObjectsV2, all pages).
    func keys(under prefix: String) throws -> [String] {
        var keys: [String] = []
        var token: String?
        repeat {
            // curl signs the query as spelled: the parameters sorted, every value encoded.
            func encode(_ text: String) -> String {
                text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? text
            }
            var url = "\(gateway.endpoint)/\(bucket)?"
            if let token { url += "continuation-token=" + encode(token) + "&" }
            url += "list-type=2&prefix=" + encode(prefix)
            let xml = try curl([url])
            keys += Self.values(of: "Key", in: xml)
            token = xml.contains("<IsTruncated>true</IsTruncated>") ? Self.values(of: "NextContinuationToken", in: xml).first : nil
        } while token != nil
        return keys
    }

    /// Downloads every object under `prefix` into `folder`, each at its path below the prefix.
    func mirror(_ prefix: String, into folder: String) throws {
        for key in try keys(under: prefix) {
            let path = folder + "/" + key.dropFirst(prefix.count)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            _ = try curl(["-o", path, "\(gateway.endpoint)/\(bucket)/\(key)"])
        }
    }

    /// The response headers of the object `key`, lower-cased names.
    func headers(_ key: String) throws -> [String: String] {
        let text = try curl(["-I", "\(gateway.endpoint)/\(bucket)/\(key)"])
        var headers: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return headers
    }

    /// Multipart uploads begun and neither completed nor aborted.
    func pendingUploads() throws -> Int {
        Self.values(of: "UploadId", in: try curl(["\(gateway.endpoint)/\(bucket)?uploads="])).count
    }

    /// Puts the file at `path` as the object `key`, over what is there (to set a bucket up as a run
    /// killed at a chosen moment would leave it).
    func put(_ key: String, file path: String) throws {
        _ = try curl(["-T", path, "\(gateway.endpoint)/\(bucket)/\(key)"], payloadHash: "UNSIGNED-PAYLOAD")
    }

    /// `payloadHash`: the body's SHA-256 as SigV4 signs it (that of no body by default).
    private func curl(_ arguments: [String],
                      payloadHash: String = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") throws -> String {
        let result = try ProcessRunner.run("curl", ["-sS", "-f", "--aws-sigv4", "aws:amz:\(gateway.region):s3",
            "--user", "\(gateway.accessKey):\(gateway.secretKey)",
            "-H", "x-amz-content-sha256: \(payloadHash)"] + arguments,
            timeout: 60)
        guard result.exitCode == 0 else { throw S3CLIKitError.curl(arguments.last ?? "", result.stderrText) }
        return result.stdoutText
    }

    static func values(of tag: String, in xml: String) -> [String] {
        xml.components(separatedBy: "<\(tag)>").dropFirst().compactMap { $0.components(separatedBy: "</\(tag)>").first }
            .map { $0.replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&quot;", with: "\"") }
    }
}

enum S3CLIKitError: Error { case curl(String, String) }
