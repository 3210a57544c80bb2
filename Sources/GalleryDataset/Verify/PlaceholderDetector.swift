import Foundation
import GallerySync

/// Counts, per host, the different URLs that served each content, in the bounded table ``PlaceholderPolicy``
/// describes; a content served by ``PlaceholderPolicy/urls`` of them is a placeholder for the rest of the run.
/// Shared by the run's shards; every call takes one lock for a few dictionary steps.
final class PlaceholderDetector: Sendable {
    /// What a success row's download is to its host.
    enum Verdict: Equatable, Sendable {
        /// The first URL of its host with this content (or its own URL again).
        case clear
        /// Another URL of its host served the same content; not (yet) a placeholder.
        case suspect
        /// A placeholder: the row fails with ``message``.
        case placeholder
    }

    /// The row's `error_message`.
    static let message = "placeholder image"

    struct Content {
        var digest: UInt64
        var urls: [UInt64]
        var flagged = false
        var lastSeen: UInt64
    }

    struct Host {
        var contents: [Content] = []
        var lastSeen: UInt64 = 0
    }

    struct Table {
        var hosts: [String: Host] = [:]
        var tick: UInt64 = 0
    }

    let policy: PlaceholderPolicy
    private let table = Locked(Table())

    init(policy: PlaceholderPolicy) { self.policy = policy }

    /// Counts `url`'s download, whose content hash is `digest` (hex: its first 16 digits are used).
    func observe(url: String, digest: String) -> Verdict {
        guard let host = Self.host(of: url), let key = Self.key(digest) else { return .clear }
        let urlHash = Self.urlHash(url)
        let policy = policy
        return table.withLock { t in
            t.tick += 1
            let now = t.tick
            var entry = t.hosts[host] ?? Host()
            entry.lastSeen = now
            defer {
                t.hosts[host] = entry
                if t.hosts.count > policy.hosts { Self.forgetOldHosts(&t, keeping: policy.hosts) }
            }
            guard let i = entry.contents.firstIndex(where: { $0.digest == key }) else {
                if entry.contents.count >= policy.digestsPerHost {
                    let victim = entry.contents.indices.min { a, b in
                        let (x, y) = (entry.contents[a], entry.contents[b])
                        return x.flagged != y.flagged ? !x.flagged : x.lastSeen < y.lastSeen
                    }!
                    entry.contents.remove(at: victim)
                }
                entry.contents.append(Content(digest: key, urls: [urlHash], lastSeen: now))
                return .clear
            }
            entry.contents[i].lastSeen = now
            if entry.contents[i].flagged { return .placeholder }
            if !entry.contents[i].urls.contains(urlHash) { entry.contents[i].urls.append(urlHash) }
            if entry.contents[i].urls.count >= policy.urls {
                entry.contents[i].flagged = true
                entry.contents[i].urls = []
                return .placeholder
            }
            return entry.contents[i].urls.count > 1 ? .suspect : .clear
        }
    }

    /// Whether `url`'s host has `digest` flagged as a placeholder now (for a held row, at its shard's close).
    func isPlaceholder(url: String, digest: String) -> Bool {
        guard let host = Self.host(of: url), let key = Self.key(digest) else { return false }
        return table.withLock { t in t.hosts[host]?.contents.contains { $0.digest == key && $0.flagged } ?? false }
    }

    /// The contents flagged so far: (host, the digest's first 16 hex digits).
    var flagged: [(host: String, digest: String)] {
        table.withLock { t in
            t.hosts.flatMap { host, entry in
                entry.contents.filter(\.flagged).map { (host, String(format: "%016llx", $0.digest)) }
            }.sorted { ($0.host, $0.digest) < ($1.host, $1.digest) }
        }
    }

    /// Marks a content of `host` (as ``host(of:)`` spells it) a placeholder, as an earlier run found it.
    func flag(host: String, digest: String) {
        guard let key = Self.key(digest) else { return }
        table.withLock { t in
            t.tick += 1
            var entry = t.hosts[host] ?? Host()
            entry.lastSeen = t.tick
            if let i = entry.contents.firstIndex(where: { $0.digest == key }) {
                entry.contents[i].flagged = true
                entry.contents[i].urls = []
            } else {
                if entry.contents.count >= policy.digestsPerHost { entry.contents.removeFirst() }
                entry.contents.append(Content(digest: key, urls: [], flagged: true, lastSeen: t.tick))
            }
            t.hosts[host] = entry
            if t.hosts.count > policy.hosts { Self.forgetOldHosts(&t, keeping: policy.hosts) }
        }
    }

    /// Hosts and contents held now (for the memory bound's test).
    var counts: (hosts: Int, contents: Int, urls: Int) {
        table.withLock { t in
            (t.hosts.count, t.hosts.values.reduce(0) { $0 + $1.contents.count },
             t.hosts.values.reduce(0) { $0 + $1.contents.reduce(0) { $0 + $1.urls.count } })
        }
    }

    /// Forgets the least recently seen eighth of the hosts (at least one), so that eviction costs a sort
    /// only every hosts/8 new hosts.
    private static func forgetOldHosts(_ t: inout Table, keeping limit: Int) {
        let drop = max(t.hosts.count - limit, limit / 8, 1)
        let oldest = t.hosts.map { ($0.key, $0.value.lastSeen) }.sorted { $0.1 < $1.1 }.prefix(drop)
        for (name, _) in oldest { t.hosts[name] = nil }
    }

    /// `scheme://host:port` of a URL, lower-cased; nil when it has no host.
    static func host(of url: String) -> String? {
        guard let parts = URLComponents(string: url), let host = parts.host, !host.isEmpty else { return nil }
        return "\(parts.scheme?.lowercased() ?? "")://\(host.lowercased())" + (parts.port.map { ":\($0)" } ?? "")
    }

    /// The first 64 bits of a hex digest.
    static func key(_ digest: String) -> UInt64? { UInt64(digest.prefix(16), radix: 16) }

    /// A 64-bit FNV-1a hash of the URL's bytes (stable across runs).
    static func urlHash(_ url: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x100_0000_01b3
        }
        return h
    }
}
