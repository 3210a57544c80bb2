import Foundation

/// One imgproxy URL path, parsed and checked: `/SIGNATURE/OPTIONS/plain/SOURCE@EXT` or
/// `/SIGNATURE/OPTIONS/BASE64URL_SOURCE.EXT` (the Base64 may be split by `/`).
public struct ImageURL: Sendable, Hashable {
    /// The options after the `default` preset, the URL's own options and any `pr:` presets.
    public var options: ProcessingOptions
    /// The source URL (`https://...` or `local:///path`), decoded.
    public var source: String
}

/// Parses and verifies imgproxy URL paths with a service's presets and keys.
public struct ImageURLParser: Sendable {
    /// Presets `pr:` may name; `default`, when present, applies to every URL first.
    public var presets = Presets()
    /// imgproxy's presets-only mode: the options part is only `NAME:NAME...` preset names.
    public var onlyPresets = false
    /// The keys URLs must be signed with; nil accepts any signature segment (`insecure`, `_` ...).
    public var signer: URLSigner?

    public init(presets: Presets = Presets(), onlyPresets: Bool = false, signer: URLSigner? = nil) {
        self.presets = presets
        self.onlyPresets = onlyPresets
        self.signer = signer
    }

    /// Parses `path` (as sent, still percent-encoded; the part after `/info` for info URLs).
    /// Throws 403 for a wrong signature, 400 naming the option or the part that is wrong.
    public func parse(_ path: String) throws(ServeError) -> ImageURL {
        var rest = Substring(path)
        guard rest.first == "/" else { throw .badRequest("path '\(path)' does not start with /") }
        rest = rest.dropFirst()
        guard let slash = rest.firstIndex(of: "/") else { throw .badRequest("path '\(path)' has no source after the signature") }
        let signature = String(rest[..<slash])
        let signed = String(rest[slash...])
        if let signer, !signer.verify(signature, path: signed) {
            throw .forbidden("invalid signature '\(signature)' for \(signed)")
        }
        var options = ProcessingOptions()
        if presets.definitions["default"] != nil {
            try OptionParser.applyPreset("default", to: &options, presets: presets, depth: 0)
        }
        var remaining = signed.dropFirst()
        var first = true
        while let end = remaining.firstIndex(of: "/") {
            let segment = String(remaining[..<end])
            if segment == "plain" || segment == "enc" { break }
            if onlyPresets {
                guard first else { break }
                for name in segment.split(separator: ":") { try OptionParser.applyPreset(String(name), to: &options, presets: presets, depth: 0) }
            } else {
                guard segment.contains(":") else { break }
                try OptionParser.apply(segment, to: &options, presets: presets)
            }
            first = false
            remaining = remaining[remaining.index(after: end)...]
        }
        let (source, format) = try Self.source(remaining, path: path)
        if let format { options.format = format }
        return ImageURL(options: options, source: source)
    }

    /// The source and the format its extension names, from `plain/URL@EXT` or `BASE64.EXT`.
    private static func source(_ part: Substring, path: String) throws(ServeError) -> (String, ProcessingOptions.OutputFormat?) {
        if part.hasPrefix("enc/") { throw .badRequest("encrypted source URLs (enc/) are not supported: \(path)") }
        var body: Substring
        var ext: Substring?
        if part.hasPrefix("plain/") {
            body = part.dropFirst("plain/".count)
            if let at = body.lastIndex(of: "@") {
                ext = body[body.index(after: at)...]
                body = body[..<at]
            }
            guard let decoded = String(body).removingPercentEncoding else { throw .badRequest("source in \(path) is not valid percent-encoding") }
            body = Substring(decoded)
        } else {
            let joined = part.replacingOccurrences(of: "/", with: "")
            var encoded = Substring(joined)
            if let dot = encoded.lastIndex(of: ".") {
                ext = encoded[encoded.index(after: dot)...]
                encoded = encoded[..<dot]
            }
            guard let bytes = Base64URL.decode(String(encoded)), let text = String(validating: bytes, as: UTF8.self) else {
                throw .badRequest("source '\(encoded)' in \(path) is not URL-safe Base64 of a URL")
            }
            body = Substring(text)
        }
        guard !body.isEmpty else { throw .badRequest("no source URL in \(path)") }
        var format: ProcessingOptions.OutputFormat?
        if let ext, !ext.isEmpty {
            guard let named = ProcessingOptions.OutputFormat(name: String(ext)) else {
                throw .badRequest("output extension '\(ext)' is not jpg, png, webp or avif")
            }
            format = named
        }
        return (String(body), format)
    }
}
