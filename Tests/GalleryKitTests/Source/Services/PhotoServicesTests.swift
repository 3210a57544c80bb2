import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The service table: names, key variables, defaults, caps, and services made from it.
@Suite struct PhotoServicesTests {
    @Test func theTableNamesEveryServiceOnceInTheCLIOrder() {
        #expect(PhotoServices.names == ["commons", "openverse", "unsplash", "pexels", "flickr", "500px"])
        #expect(Set(PhotoServices.names).count == PhotoServices.all.count)
        #expect(PhotoServices.entry(named: "pexels")?.keyVariable == "PEXELS_API_KEY")
        #expect(PhotoServices.entry(named: "commons")?.keyVariable == nil)
        #expect(PhotoServices.entry(named: "nope") == nil)
        #expect(PhotoServices.all.filter { !$0.plannable }.map(\.name) == ["unsplash"])
    }

    @Test func aKeyComesFromTheServicesOwnVariableAndAnEmptyOneIsNone() {
        let environment = ["UNSPLASH_ACCESS_KEY": "u-key", "PEXELS_API_KEY": "", "FLICKR_API_KEY": "f-key"]
        #expect(PhotoServices.key(for: "unsplash", environment: environment) == "u-key")
        #expect(PhotoServices.key(for: "pexels", environment: environment) == nil)
        #expect(PhotoServices.key(for: "commons", environment: environment) == nil)
        #expect(PhotoServices.key(for: "flickr", environment: [:]) == nil)
    }

    @Test func servicesAreMadeWithTheirDefaultsOrWhatIsAsked() throws {
        let commons = try #require(try PhotoServices.make("commons", .init(category: "Cats")) as? CommonsService)
        #expect(commons.endpoint == CommonsService.defaultEndpoint && commons.perBatch == 50)
        let mirror = URL(string: "http://127.0.0.1:9/v1")!
        let pexels = try #require(try PhotoServices.make("pexels", .init(key: "k", base: mirror, perPage: 7)) as? PexelsService)
        #expect(pexels.base == mirror && pexels.perPage == 7 && pexels.key == "k")
        let flickr = try #require(try PhotoServices.make("flickr", .init(key: "k")) as? FlickrService)
        #expect(flickr.perPage == 100 && flickr.endpoint == FlickrService.defaultEndpoint)
        let openverse = try #require(try PhotoServices.make("openverse", .init(query: "x", includeNSFW: true)) as? OpenverseService)
        #expect(openverse.perPage == 20 && openverse.includeMature)
    }

    @Test func aKeyedServiceWithoutItsKeyOrAnUnknownNameIsRefused() {
        #expect(throws: SourceError.needsKey(service: "unsplash", variable: "UNSPLASH_ACCESS_KEY")) {
            try PhotoServices.make("unsplash", .init(query: "x"))
        }
        #expect(throws: SourceError.needsKey(service: "flickr", variable: "FLICKR_API_KEY")) {
            try PhotoServices.make("flickr", .init(key: ""))
        }
        #expect(throws: SourceError.self) { try PhotoServices.make("picasa", .init()) }
        #expect(throws: SourceError.self) { try PhotoServices.make("500px", .init()) }
    }

    @Test func commonsCapsDownloadsPerHostAndEveryServiceGetsTheAgent() {
        var configuration = TransferConfiguration()
        configuration.maxConcurrentPerHost = 6
        PhotoServices.configure(&configuration, for: "commons", userAgent: "agent/1")
        #expect(configuration.maxConcurrentPerHost == PhotoServices.wikimediaMaxConcurrentPerHost && configuration.userAgent == "agent/1")
        var other = TransferConfiguration()
        other.maxConcurrentPerHost = 2
        PhotoServices.configure(&other, for: "commons", userAgent: "a")
        #expect(other.maxConcurrentPerHost == 2, "a lower --per-host stays")
        var pexels = TransferConfiguration()
        pexels.maxConcurrentPerHost = 6
        PhotoServices.configure(&pexels, for: "pexels", userAgent: "b")
        #expect(pexels.maxConcurrentPerHost == 6 && pexels.userAgent == "b")
    }
}
