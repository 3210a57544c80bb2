import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// What each listing kind answers for itself instead of the run asking the job's kind: who named its
/// image URLs (and so the address rule), the keys it carries, whether it has comments. A shard of a
/// source answers as the source.
@Suite struct PhotoSourceTests {
    static let hint = "--allow-private-addresses lifts this"
    static let api = PageAPISource(api: FiveHundredPxService(base: URL(string: "http://127.0.0.1:9")!, consumerKey: "k-123"))
    static let list = URLListFileSource(text: "http://127.0.0.1:9/a.jpg", fileName: "list.txt")
    static let plan = PlanSource(path: "/nonexistent/plan.jsonl", recordedSource: "list.txt")
    static let service = ServiceSource(service: CannedService(batches: []))

    @Test func eachSourceSaysWhoNamedItsImageURLs() throws {
        #expect(Self.api.imageURLOrigin == .server)
        #expect(Self.service.imageURLOrigin == .server)
        #expect(Self.list.imageURLOrigin == .user)
        #expect(Self.plan.imageURLOrigin == .recorded)
        let shard = try ShardSpec(index: 1, count: 2)
        #expect(ShardedSource(base: Self.list, shard: shard).imageURLOrigin == .user)
        #expect(ShardedSource(base: Self.api, shard: shard).imageURLOrigin == .server)
        #expect(ShardedSource(base: Self.plan, shard: shard).imageURLOrigin == .recorded)
    }

    @Test func urlsTheUserNamedMayNotRedirectSomewhereMorePrivate() {
        for noted in [nil, AddressClass.loopback, .publicInternet] {
            let policy = ImageURLOrigin.user.addressPolicy(listingAddress: noted, hint: Self.hint)
            #expect(policy.rule == .atMostAsPrivateAsOrigin, "whatever address was noted: \(String(describing: noted))")
            #expect(policy.explanation.hasSuffix(Self.hint))
        }
    }

    @Test func urlsAServerListedFollowItsAddressAndFailClosed() {
        let unknown = ImageURLOrigin.server.addressPolicy(listingAddress: nil, hint: Self.hint)
        #expect(unknown.rule == .atMostAsPrivateAs(.publicInternet), "no address noted: as strict as can be")
        #expect(unknown.explanation == "the API host is public; " + Self.hint)
        #expect(ImageURLOrigin.server.addressPolicy(listingAddress: .loopback, hint: Self.hint).rule == .atMostAsPrivateAs(.loopback))
    }

    @Test func aPlanFollowsTheListingItRecords() {
        // A plan of a URL list records no listing address: its URLs were named by the user.
        #expect(ImageURLOrigin.recorded.addressPolicy(listingAddress: nil, hint: Self.hint).rule == .atMostAsPrivateAsOrigin)
        #expect(ImageURLOrigin.recorded.addressPolicy(listingAddress: .privateNetwork, hint: Self.hint).rule
                    == .atMostAsPrivateAs(.privateNetwork))
    }

    @Test func onlyThe500pxConsumerKeyIsASourceSecret() throws {
        #expect(Self.api.secrets == ["k-123"])
        #expect(PageAPISource(api: FiveHundredPxService(base: URL(string: "http://127.0.0.1:9")!)).secrets.isEmpty)
        #expect(ShardedSource(base: Self.api, shard: try ShardSpec(index: 0, count: 3)).secrets == ["k-123"])
        #expect(Self.list.secrets.isEmpty && Self.plan.secrets.isEmpty && Self.service.secrets.isEmpty)
    }

    @Test func sourcesWithoutCommentsAskNothing() async throws {
        let engine = ListingKit.idleEngine()
        defer { engine.shutdown() }
        for source in [Self.list, Self.plan, Self.service] as [any PhotoSource] {
            #expect(await source.comments(of: 1, engine: engine, maxBytes: 1 << 20) == nil, "\(source.name)")
        }
    }
}
