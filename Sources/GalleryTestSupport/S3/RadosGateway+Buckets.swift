import Foundation

extension RadosGateway {
    /// The SHA-256 of an empty payload, which every bodiless signed request declares.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Creates a bucket with a fresh name (`fg-` and 20 random characters, or `prefix`-...) and
    /// returns its name. Uses curl's own SigV4 signing, so a bucket exists whatever the client
    /// under test does.
    public func makeBucket(_ prefix: String = "fg") throws(TestSupportError) -> String {
        let name = prefix + "-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        let status = try signedCurl(["-X", "PUT", "\(endpoint)/\(name)"])
        guard status == "200" else {
            throw .launchFailed(executable: "curl", reason: "creating bucket \(name) answered HTTP \(status)")
        }
        return name
    }

    /// Runs curl with this gateway's credentials (SigV4) and returns the HTTP status it printed.
    func signedCurl(_ arguments: [String]) throws(TestSupportError) -> String {
        let result = try ProcessRunner.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}",
            "--aws-sigv4", "aws:amz:\(region):s3", "--user", "\(accessKey):\(secretKey)",
            "-H", "x-amz-content-sha256: \(Self.emptyPayloadHash)"] + arguments, timeout: 30)
        return result.stdoutText
    }
}
