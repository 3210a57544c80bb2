import CCurl

/// libcurl's DNS cache and idle-connection cache for one ``MultiLoop``, as share handles, each holding a
/// bounded number of origins.
///
/// Both caches grow with the hosts of a run, and libcurl 7.88 walks them whole:
/// - A transfer whose addresses our resolver found hands them to libcurl as `CURLOPT_RESOLVE` entries, which
///   libcurl keeps for good, and tells it never to prune (`CURLOPT_DNS_CACHE_TIMEOUT` -1): it prunes by
///   walking its whole DNS cache after every transfer, which with an entry per host of a web-scale list cost
///   a fifth of the process's CPU at 5,000 hosts.
/// - When its idle connections pass `CURLMOPT_MAXCONNECTS`, libcurl closes the oldest, found by walking the
///   cache's per-host bundles, and the bundle it takes the connection from stays behind, empty, for good.
///   So after every transfer it walked a bundle for each host it had ever evicted from: 4,900 of them at
///   5,000 hosts, 86 million steps for 20,000 transfers, 14% of the process's CPU.
///
/// So a share holds at most `originsPerShare` origins (scheme, host and port). A transfer to an origin the
/// current share or the one before it holds goes there (its kept-alive connection and its addresses are
/// there: a host's robots.txt, then its images); a new origin goes to the current share, and once that holds
/// `originsPerShare` of them a fresh share takes over. The share two back takes no more transfers and is
/// freed once the last transfer it was given has ended. libcurl's walks are then bounded by the share's
/// origins, and the caches hold the origins of at most a few shares. Loop thread only.
struct CurlShares {
    typealias Share = UnsafeMutableRawPointer

    let originsPerShare: Int
    private var current: Share
    private var currentOrigins: Set<String> = []
    /// The share before the current one and its origins: still given transfers to those origins.
    private var previous: (share: Share, origins: Set<String>)?
    /// Transfers holding each share now (the current one, the previous one and retired ones not yet freed).
    private var holders: [Share: Int] = [:]
    /// Shares made so far, the first included.
    private(set) var made = 1
    /// Retired shares freed so far.
    private(set) var freed = 0

    init(originsPerShare: Int) {
        self.originsPerShare = max(1, originsPerShare)
        current = Self.make()
    }

    private static func make() -> Share {
        let share = curl_share_init()!
        _ = fg_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        _ = fg_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_CONNECT.rawValue))
        return share
    }

    /// "scheme://host:port" of `url` (what libcurl's caches are keyed on, near enough), split by ``URLParts``.
    static func origin(of url: String) -> String {
        guard let parts = URLParts(url) else { return url }
        return parts.scheme + "://" + parts.authority
    }

    /// The share for a transfer to `url` about to start; ``release(_:)`` it when the transfer has left it.
    mutating func take(for url: String) -> Share {
        let origin = Self.origin(of: url)
        let share: Share
        if currentOrigins.contains(origin) {
            share = current
        } else if let previous, previous.origins.contains(origin) {
            share = previous.share
        } else {
            if currentOrigins.count >= originsPerShare { turnOver() }
            currentOrigins.insert(origin)
            share = current
        }
        holders[share, default: 0] += 1
        return share
    }

    /// A fresh current share; the previous one is retired, freed now if no transfer holds it.
    private mutating func turnOver() {
        let retired = previous?.share
        previous = (current, currentOrigins)
        current = Self.make()
        currentOrigins = []
        made += 1
        if let retired { freeIfUnused(retired) }
    }

    /// A transfer given `share` has been detached from it.
    mutating func release(_ share: Share) {
        holders[share, default: 1] -= 1
        if share != current, share != previous?.share { freeIfUnused(share) }
    }

    private mutating func freeIfUnused(_ share: Share) {
        guard holders[share, default: 0] <= 0 else { return }
        holders[share] = nil
        curl_share_cleanup(share)
        freed += 1
    }

    /// Frees every share (the loop's end: no transfer holds one any more).
    mutating func freeAll() {
        var all = Set(holders.keys)
        all.insert(current)
        if let previous { all.insert(previous.share) }
        for share in all { curl_share_cleanup(share) }
        holders = [:]
        previous = nil
    }
}
