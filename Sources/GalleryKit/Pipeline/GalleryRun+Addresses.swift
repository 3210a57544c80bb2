import Foundation

extension GalleryRun {
    /// The address rule for photo downloads. Image URLs come from a server, so by default they may not
    /// make us connect anywhere more private than that server: a public API cannot point us at loopback,
    /// a private network or link-local (cloud metadata) addresses, checked by the engine on the address
    /// each connection really goes to. An API on loopback (the demo catalogue) may use any address.
    /// URL-list photos were named by the user: their own host may be anything, but a redirect may not
    /// lead to a more private address than it. `GalleryJob.allowPrivateAddresses` lifts both.
    var imageAddressPolicy: AddressPolicy {
        if job.allowPrivateAddresses { return .unrestricted }
        let listedByUser: Bool
        switch job.source {
        case .urlList: listedByUser = true
        // A plan of a URL list records no listing address: its URLs were named by the user.
        case .plan: listedByUser = apiAddressClass.withLock({ $0 }) == nil
        case .api, .service: listedByUser = false
        }
        if listedByUser {
            return AddressPolicy(.atMostAsPrivateAsOrigin,
                                 explanation: "a listed URL may not redirect to a more private address than its own "
                                    + "host's; \(job.privateAddressesHint)")
        }
        // Photos are only handed on after a page arrived, so the class is known; fail closed if not.
        let api = apiAddressClass.withLock { $0 } ?? .publicInternet
        return AddressPolicy(.atMostAsPrivateAs(api), explanation: "the API host is \(api); \(job.privateAddressesHint)")
    }

    /// Records the address a listing page came from (CURLINFO_PRIMARY_IP). Should pages come from
    /// differently classed addresses, the most public one counts, so the rule only ever gets stricter.
    func noteAPIAddress(_ text: String?) {
        guard let kind = text.flatMap(IPAddress.init)?.addressClass, let privacy = kind.privacy else { return }
        apiAddressClass.withLock { current in
            if let known = current?.privacy, known <= privacy { return }
            current = kind
            apiAddress.withLock { $0 = text }
        }
    }
}
