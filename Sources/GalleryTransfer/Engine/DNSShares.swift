import CCurl

/// libcurl's DNS cache for one ``MultiLoop``, as share handles, kept bounded.
///
/// A transfer whose addresses our resolver found hands them to libcurl as `CURLOPT_RESOLVE` entries, which
/// libcurl keeps for good, and tells it never to prune (`CURLOPT_DNS_CACHE_TIMEOUT` -1): libcurl 7.88
/// prunes by walking its whole DNS cache after every transfer, which with an entry per host of a
/// web-scale list cost a fifth of the process's CPU at 5,000 hosts. So the cache would grow with every
/// host of the run; instead, after `transfersPerShare` transfers new ones get a fresh share, and an old
/// share is freed once the last transfer given it has ended. The cache then holds at most the hosts of
/// about two shares' transfers. Loop thread only.
struct DNSShares {
    typealias Share = UnsafeMutableRawPointer

    let transfersPerShare: Int
    private var current: Share
    private var givenByCurrent = 0
    /// Transfers holding each share now (the current one and retired ones not yet freed).
    private var holders: [Share: Int] = [:]
    /// Shares made so far, the first included.
    private(set) var made = 1
    /// Retired shares freed so far.
    private(set) var freed = 0

    init(transfersPerShare: Int) {
        self.transfersPerShare = max(1, transfersPerShare)
        current = Self.make()
    }

    private static func make() -> Share {
        let share = curl_share_init()!
        _ = fg_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        return share
    }

    /// The share for a transfer about to start; ``release(_:)`` it when the transfer has left it.
    mutating func take() -> Share {
        if givenByCurrent >= transfersPerShare {
            let old = current
            current = Self.make()
            made += 1
            givenByCurrent = 0
            freeIfUnused(old)
        }
        givenByCurrent += 1
        holders[current, default: 0] += 1
        return current
    }

    /// A transfer given `share` has been detached from it.
    mutating func release(_ share: Share) {
        holders[share, default: 1] -= 1
        if share != current { freeIfUnused(share) }
    }

    private mutating func freeIfUnused(_ share: Share) {
        guard holders[share, default: 0] <= 0 else { return }
        holders[share] = nil
        curl_share_cleanup(share)
        freed += 1
    }

    /// Frees every share (the loop's end: no transfer holds one any more).
    mutating func freeAll() {
        for share in holders.keys where share != current { curl_share_cleanup(share) }
        curl_share_cleanup(current)
        holders = [:]
    }
}
