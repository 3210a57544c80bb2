import Foundation

/// Turns URLs into safe, unique file names inside one folder: the last path component, percent-decoded,
/// with no `/`, no NUL, never `.`/`..` or hidden, at most 200 bytes, and `-2`, `-3`… for repeats.
/// Deterministic for a given URL order, so a second run maps every URL to the same file (and resumes it).
public struct DestinationNamer: Sendable {
    private var used: Set<String> = []
    /// Per base name, the first suffix number not yet tried: a list of many URLs with one last component
    /// (`…/image.jpg?id=N`) costs one probe per name instead of one per earlier repeat (it was quadratic).
    private var nextSuffix: [String: Int] = [:]

    /// A namer that has given out no name yet.
    public init() {}

    /// A safe file name for `url`, unique among the names this namer gave.
    public mutating func name(for url: String) -> String {
        let base = Self.sanitize(Self.lastComponent(url))
        guard used.contains(base) else {
            used.insert(base)
            return base
        }
        // Names are only ever added, so every suffix below nextSuffix[base] is still taken: starting
        // there gives the same name as counting from 2.
        let ext = (base as NSString).pathExtension
        let stem = (base as NSString).deletingPathExtension
        var n = nextSuffix[base] ?? 2
        var candidate: String
        repeat {
            candidate = ext.isEmpty ? "\(stem)-\(n)" : "\(stem)-\(n).\(ext)"
            n += 1
        } while used.contains(candidate)
        nextSuffix[base] = n
        used.insert(candidate)
        return candidate
    }

    static func lastComponent(_ url: String) -> String {
        let path = URLParts(url)?.path ?? url
        let last = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? ""
        return URLParts.percentDecoded(last)
    }

    static func sanitize(_ raw: String) -> String {
        // Separators become "_", control characters go (byte-wise: this runs once per listed URL).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        for c in raw.utf8 where c >= 0x20 && c != 0x7F {
            bytes.append(c == 0x2F || c == 0x5C ? 0x5F : c)
        }
        var s = String(decoding: bytes, as: UTF8.self).asciiTrimmed
        // Cut first, from the front so the extension survives; the checks below must see the final
        // text (found by fuzzing: cutting after them could leave a leading dot, i.e. a hidden file).
        while s.utf8.count > 200 { s.removeFirst() }
        s = s.asciiTrimmed
        // "..", "." and hidden names could escape or hide: a leading dot becomes "_".
        while s.hasPrefix(".") { s = "_" + s.dropFirst() }
        // Our own working files must never be a destination.
        if s.hasSuffix(".part") || s.hasSuffix(".part.meta") || s.hasSuffix(".tmp") { s += "_" }
        return s.isEmpty || s.allSatisfy({ $0 == "_" }) ? "download" + s : s
    }
}

/// The URL list format of `fetch-gallery download --urls`: one URL per line, blank lines and `#` comments skipped.
public enum URLList {
    /// The URLs of a list: one per line, blank lines and `#` comments skipped.
    public static func parse(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { String($0).asciiTrimmed }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
