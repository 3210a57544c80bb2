import Foundation

/// The keys requests are signed with, found where the AWS tools look:
/// 1. `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`) in the environment;
/// 2. else the profile `AWS_PROFILE` (default `default`) of the shared credentials file
///    (`AWS_SHARED_CREDENTIALS_FILE`, default `~/.aws/credentials`).
///
/// `description` names the access key and where it came from; the secret and the token are redacted.
public struct S3Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The access key id.
    public let accessKeyID: String
    /// The secret access key (never printed).
    public let secretAccessKey: String
    /// The session token of temporary credentials (never printed).
    public let sessionToken: String?
    /// Where they came from: `environment` or `profile default in /root/.aws/credentials`.
    public let origin: String

    /// Credentials given directly.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, origin: String = "given") {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken.flatMap { $0.isEmpty ? nil : $0 }
        self.origin = origin
    }

    /// `S3Credentials(AKIA..., secret [redacted], from environment)`.
    public var description: String {
        "S3Credentials(\(accessKeyID), secret [redacted]\(sessionToken == nil ? "" : ", session token [redacted]"), from \(origin))"
    }

    public var debugDescription: String { description }

    /// What `dump` and debuggers show: the key id and the origin, not the secret or the token.
    public var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": accessKeyID, "secretAccessKey": "[redacted]", "origin": origin],
               displayStyle: .struct)
    }

    /// The credentials from the environment or the shared credentials file, as described above.
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws(S3Error) -> S3Credentials {
        let id = environment["AWS_ACCESS_KEY_ID"] ?? ""
        let secret = environment["AWS_SECRET_ACCESS_KEY"] ?? ""
        if !id.isEmpty || !secret.isEmpty {
            guard !id.isEmpty, !secret.isEmpty else {
                throw .credentialsMissing(reason: "\(id.isEmpty ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY") is not set "
                    + "but \(id.isEmpty ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID") is")
            }
            return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: environment["AWS_SESSION_TOKEN"],
                                 origin: "environment")
        }
        let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        let path: String
        if let file = environment["AWS_SHARED_CREDENTIALS_FILE"], !file.isEmpty {
            path = file
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            path = home + "/.aws/credentials"
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            if !exists && environment["AWS_SHARED_CREDENTIALS_FILE"] == nil {
                throw .credentialsMissing(reason: "set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write profile "
                    + "'\(profile)' to \(path)")
            }
            throw .credentialsFile(path: path, reason: exists ? "cannot be read" : "does not exist")
        }
        return try parse(String(decoding: data, as: UTF8.self), profile: profile, path: path)
    }

    /// The profile `profile` of a credentials file's text (INI: `[name]` sections of `key = value`
    /// lines; `#` and `;` start comments). `path` is for messages.
    public static func parse(_ text: String, profile: String, path: String) throws(S3Error) -> S3Credentials {
        var section: String?
        var values: [String: String] = [:]
        var found = false
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    throw .credentialsFile(path: path, reason: "line \(number + 1): a section header without ']'")
                }
                section = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                if section == profile { found = true }
                continue
            }
            guard section == profile else { continue }
            guard let equals = line.firstIndex(of: "=") else {
                // The line may hold the secret: name the line, never show it.
                throw .credentialsFile(path: path, reason: "line \(number + 1) of profile '\(profile)' is not 'name = value'")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            values[name] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        guard found else { throw .credentialsFile(path: path, reason: "has no profile '\(profile)'") }
        guard let id = values["aws_access_key_id"], !id.isEmpty else {
            throw .credentialsFile(path: path, reason: "profile '\(profile)' has no aws_access_key_id")
        }
        guard let secret = values["aws_secret_access_key"], !secret.isEmpty else {
            throw .credentialsFile(path: path, reason: "profile '\(profile)' has no aws_secret_access_key")
        }
        return S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: values["aws_session_token"],
                             origin: "profile \(profile) in \(path)")
    }
}
