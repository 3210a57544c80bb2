import Foundation

/// What proves that bytes from two responses belong to the same representation. Only a strong ETag or a
/// Last-Modified date qualifies (RFC 9110 If-Range); a weak ETag ("W/") explicitly does not promise
/// byte-identical content, so a server that sends one gets no resume even if it also sends Last-Modified.
public enum Validator: Codable, Sendable, Equatable {
    /// A strong entity tag, quotes included.
    case etag(String)
    /// A `Last-Modified` date, as sent.
    case lastModified(String)

    /// The value for `If-Range`.
    public var headerValue: String {
        switch self {
        case .etag(let v), .lastModified(let v): return v
        }
    }

    /// The validator a response offers for a later resume, or nil when it offers none we trust.
    public static func from(_ headers: HTTPHeaders) -> Validator? {
        if let etag = headers["ETag"]?.asciiTrimmed, !etag.isEmpty {
            return etag.hasPrefix("W/") ? nil : .etag(etag)
        }
        if let lm = headers["Last-Modified"], !lm.isEmpty { return .lastModified(lm) }
        return nil
    }
}

/// A parsed `Content-Range: bytes START-END/TOTAL` or `bytes */TOTAL`.
public struct ContentRange: Sendable, Equatable {
    /// First byte of the range, nil for `*/total`.
    public var start: Int64?
    /// Last byte of the range (inclusive), nil for `*/total`.
    public var end: Int64?
    /// The full length, nil when the server wrote `*`.
    public var total: Int64?

    /// Parses a `Content-Range` value; nil when it is malformed.
    public init?(_ value: String) {
        let v = value.trimmingCharacters(in: .whitespaces)
        guard v.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = v.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        if parts[1] != "*" {
            guard let t = Self.position(parts[1]) else { return nil }
            total = t
        }
        if parts[0] != "*" {
            let se = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard se.count == 2, let s = Self.position(se[0]), let e = Self.position(se[1]), e >= s else { return nil }
            // RFC 9110 14.4: a range whose last byte is not below the complete length is invalid.
            // Found by fuzzing: "bytes 100-1233/1233" was accepted and appended with a total at or below the offset.
            if let t = total, e >= t { return nil }
            start = s
            end = e
        } else if total == nil {
            return nil
        }
    }

    /// A byte position or length: ASCII digits only. Int64("+5") and Int64("-0") parse, and neither
    /// is valid in a Content-Range.
    static func position<S: StringProtocol>(_ text: S) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }
}

/// What is on disk for a destination before an attempt.
public struct LocalPartial: Sendable, Equatable {
    /// The sidecar found, if any.
    public var sidecar: Sidecar?
    /// Bytes in the partial file.
    public var partSize: Int64

    /// What was found on disk.
    public init(sidecar: Sidecar?, partSize: Int64) {
        self.sidecar = sidecar
        self.partSize = partSize
    }
}

/// How to ask: from scratch, or for the rest of a partial.
public enum ResumePlan: Sendable, Equatable {
    /// Ask for the whole body.
    case fresh
    /// Ask for the bytes from `from` on, if the representation still matches `validator`.
    case resume(from: Int64, validator: Validator)

    /// A partial is resumed only when its sidecar names the same URL, holds a trusted validator and the part
    /// file has bytes. A known length that the partial already exceeds is not resumed either.
    public static func make(local: LocalPartial?, url: String) -> ResumePlan {
        guard let local, let sidecar = local.sidecar, sidecar.url == url, local.partSize > 0,
              let validator = sidecar.validator else { return .fresh }
        if let expected = sidecar.expectedLength, local.partSize > expected { return .fresh }
        return .resume(from: local.partSize, validator: validator)
    }

    /// The byte the download continues from (0 when starting over).
    public var offset: Int64 {
        if case .resume(let from, _) = self { return from }
        return 0
    }
}

/// What to do with the response to a planned request. A pure function of (plan, status, headers) so it can be
/// tested and fuzzed without a network.
public enum ResumeDecision: Sendable, Equatable {
    /// Write the body from byte 0 (a fresh request, or the server sent the whole, possibly changed, file).
    case writeFromStart(expectedLength: Int64?, validator: Validator?)
    /// Append the body to the partial, which is `offset` bytes long.
    case append(offset: Int64, expectedLength: Int64?)
    /// The partial already is the whole file (416 whose total equals its size).
    case alreadyComplete(length: Int64)
    /// The partial cannot be used with this response; delete it and ask again from scratch.
    case restart(reason: String)
    /// Not a body we store (other statuses are handled by the retry policy and errors).
    case notApplicable

    /// What to do with the partial file given the server's answer to a (possibly ranged) request.
    public static func decide(plan: ResumePlan, status: Int, headers: HTTPHeaders) -> ResumeDecision {
        // With a Content-Encoding, Content-Length and ranges count encoded bytes, not the decoded bytes we
        // store: the length cannot be checked on disk (libcurl checks it on the wire) and no resume is safe.
        let encoded = headers["Content-Encoding"].map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        let validator = encoded ? nil : Validator.from(headers)
        let length = encoded ? nil : headers["Content-Length"].flatMap { ContentRange.position($0.asciiTrimmed) }
        switch status {
        case 200:
            // Either a fresh request, or If-Range did not match / the server ignores Range: start over.
            return .writeFromStart(expectedLength: length, validator: validator)
        case 206:
            guard case .resume(let offset, let ours) = plan else {
                return .restart(reason: "206 to a request without Range")
            }
            // A coded 206 ranges over the coded bytes, not the decoded bytes on disk: appending would corrupt the file.
            guard !encoded else { return .restart(reason: "206 with Content-Encoding \(headers["Content-Encoding"] ?? "")") }
            guard let range = headers["Content-Range"].flatMap(ContentRange.init), let start = range.start else {
                return .restart(reason: "206 without a usable Content-Range")
            }
            guard start == offset else { return .restart(reason: "206 starts at \(start), partial has \(offset)") }
            // A server that ignored If-Range but changed the file would splice two versions: refuse.
            if let theirs = validator, theirs != ours, case .etag = theirs {
                return .restart(reason: "validator changed from \(ours.headerValue) to \(theirs.headerValue)")
            }
            return .append(offset: offset, expectedLength: range.total)
        case 416:
            guard case .resume(let offset, _) = plan else { return .notApplicable }
            guard let total = headers["Content-Range"].flatMap(ContentRange.init)?.total else {
                return .restart(reason: "416 without a total length")
            }
            return total == offset ? .alreadyComplete(length: total)
                : .restart(reason: "416: partial has \(offset) bytes, file has \(total)")
        case 201..<300:
            return .writeFromStart(expectedLength: length, validator: nil)
        default:
            return .notApplicable
        }
    }
}
