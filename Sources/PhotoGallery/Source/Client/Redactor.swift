import Foundation

/// Removes secrets (API keys) from any text before it can reach an error, the journal, the manifest or
/// the progress output: each secret is replaced, as typed and percent-encoded (as it appears in a URL's
/// query), by `REDACTED`.
public struct Redactor: Sendable, Hashable {
    /// The texts never to show. Empty strings and one- or two-character "keys" are ignored (they would
    /// redact ordinary words).
    public let secrets: [String]

    /// A redactor for `secrets`.
    public init(secrets: [String]) {
        var forms: [String] = []
        for secret in secrets where secret.count >= 3 {
            forms.append(secret)
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: Self.unreserved), encoded != secret {
                forms.append(encoded)
            }
            // A form encoder's `+` for a space.
            if secret.contains(" ") { forms.append(secret.replacingOccurrences(of: " ", with: "+")) }
        }
        // Longest first, so a key that contains another is replaced whole.
        self.secrets = Array(Set(forms)).sorted { $0.count > $1.count }
    }

    /// `text` with every secret replaced.
    public func redact(_ text: String) -> String {
        var out = text
        for secret in secrets where out.contains(secret) {
            out = out.replacingOccurrences(of: secret, with: "REDACTED")
        }
        return out
    }

    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
