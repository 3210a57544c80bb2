/// When a run takes a download for a host's "image not found" placeholder: the same bytes (their SHA-256)
/// served for at least ``urls`` different URLs of one host (scheme, host and port as the URL spells them).
/// The same URL listed many times counts once, and the same photo on many hosts counts once per host, so a
/// photo hot-linked from many pages is not flagged.
///
/// Memory is bounded: ``hosts`` hosts (the least recently seen forgotten first), each with at most
/// ``digestsPerHost`` contents (the least recently seen unflagged one forgotten first), each with at most
/// ``urls`` URL hashes of 8 bytes: ``memoryBound`` bytes in all.
public struct PlaceholderPolicy: Sendable, Equatable {
    /// `--placeholder-urls`: different URLs of one host with the same content that make it a placeholder.
    public var urls = 10
    /// Hosts remembered at once.
    public var hosts = 4096
    /// Contents remembered per host.
    public var digestsPerHost = 8
    /// Success rows a shard holds back, whose content another URL of their host served too, until the shard
    /// closes: they are written then, as placeholders when their content became one. Past this many, a shard
    /// writes its oldest held row as it is.
    public var heldRowsPerShard = 256

    public init() {}

    /// Bytes of the host table at its fullest: per content 8 (digest) + 8 (last seen) + 1 (flag) + the URL hashes
    /// (8 each, in an array of 32 bytes of header), per host its table's array (32), its name (up to 64
    /// bytes of URL authority) and the dictionary's slot (about 48).
    public var memoryBound: Int {
        hosts * (digestsPerHost * (8 + 8 + 8 + 32 + urls * 8) + 32 + 64 + 48)
    }

    func validate() throws(DatasetError) {
        guard urls >= 2 else { throw .invalidOption("--placeholder-urls must be at least 2") }
        guard hosts >= 1, digestsPerHost >= 1, heldRowsPerShard >= 0 else { throw .invalidOption("the placeholder table needs room for a host and a content") }
    }
}
