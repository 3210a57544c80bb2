import Foundation

/// One `--source` service: its name, what its listing is asked by, its key, its defaults, and the
/// politeness it asks of clients. The CLI maps its flags through this table; nothing about a service
/// is written twice.
public struct ServiceEntry: Sendable, Hashable {
    /// What a service's listing is chosen by.
    public enum Listing: Sendable, Hashable {
        /// A category name, required (Commons).
        case category
        /// Search words, required (Openverse).
        case query
        /// Search words, or without them the service's own feed (Unsplash, Pexels, Flickr).
        case optionalQuery
        /// The API's popular photos (500px: its base URL is required).
        case popular
    }

    /// The `--source` name.
    public let name: String
    /// What the listing is chosen by.
    public let listing: Listing
    /// The environment variable its API key is read from; nil: no key.
    public let keyVariable: String?
    /// Photos asked per page or batch when none is given.
    public let defaultPerPage: Int
    /// The most per page the service allows (Openverse: 20 without a token); nil: no limit of ours.
    public let maxPerPage: Int?
    /// The most requests at once to one host the service asks of clients (Wikimedia: 3); nil: the user's own.
    public let maxConcurrentPerHost: Int?
    /// Whether a plan of it can be run by workers holding no key (Unsplash asks every download to be reported with the key).
    public let plannable: Bool
}

/// The services `--source` accepts, and how each is made (``PhotoService``).
public enum PhotoServices {
    /// Wikimedia asks clients for at most 3 requests at once, images included.
    public static let wikimediaMaxConcurrentPerHost = 3

    /// Every service, in the order the CLI lists them.
    public static let all: [ServiceEntry] = [
        ServiceEntry(name: "commons", listing: .category, keyVariable: nil, defaultPerPage: 50, maxPerPage: nil,
                     maxConcurrentPerHost: wikimediaMaxConcurrentPerHost, plannable: true),
        ServiceEntry(name: "openverse", listing: .query, keyVariable: nil, defaultPerPage: 20, maxPerPage: 20,
                     maxConcurrentPerHost: nil, plannable: true),
        ServiceEntry(name: "unsplash", listing: .optionalQuery, keyVariable: "UNSPLASH_ACCESS_KEY", defaultPerPage: 30,
                     maxPerPage: nil, maxConcurrentPerHost: nil, plannable: false),
        ServiceEntry(name: "pexels", listing: .optionalQuery, keyVariable: "PEXELS_API_KEY", defaultPerPage: 80,
                     maxPerPage: nil, maxConcurrentPerHost: nil, plannable: true),
        ServiceEntry(name: "flickr", listing: .optionalQuery, keyVariable: "FLICKR_API_KEY", defaultPerPage: 100,
                     maxPerPage: nil, maxConcurrentPerHost: nil, plannable: true),
        ServiceEntry(name: "500px", listing: .popular, keyVariable: nil, defaultPerPage: 50, maxPerPage: nil,
                     maxConcurrentPerHost: nil, plannable: true),
    ]

    /// The names, in order.
    public static var names: [String] { all.map(\.name) }

    /// The entry named `name`, or nil.
    public static func entry(named name: String) -> ServiceEntry? { all.first { $0.name == name } }

    /// The longest wait, in seconds, for a service's rate limit when none is given.
    public static let defaultRateLimitWait: Double = 120

    /// What a service is asked for.
    public struct Request: Sendable, Hashable {
        public var category: String?
        public var query: String?
        /// The key (from the command line or ``key(for:environment:)``).
        public var key: String?
        /// Another base URL or endpoint (a mirror, a proxy, a test server); nil: the service's own.
        public var base: URL?
        public var perPage: Int?
        public var includeNSFW = false

        public init(category: String? = nil, query: String? = nil, key: String? = nil, base: URL? = nil,
                    perPage: Int? = nil, includeNSFW: Bool = false) {
            (self.category, self.query, self.key, self.base, self.perPage, self.includeNSFW)
                = (category, query, key, base, perPage, includeNSFW)
        }
    }

    /// The key of service `name` from its environment variable (an empty value is no key).
    public static func key(for name: String, environment: [String: String]) -> String? {
        entry(named: name)?.keyVariable.flatMap { environment[$0] }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The service `name` asked for `request`. Throws ``SourceError/needsKey(service:variable:)`` for a
    /// keyed service without a key, ``SourceError/unusable(service:reason:)`` for a name not in the table,
    /// and for 500px, which is read by pages (``FiveHundredPxService``) and needs a base URL.
    public static func make(_ name: String, _ request: Request) throws(SourceError) -> any PhotoService {
        guard let entry = entry(named: name) else {
            throw .unusable(service: name, reason: "not one of \(names.joined(separator: ", "))")
        }
        func key() throws(SourceError) -> String {
            guard let key = request.key, !key.isEmpty else { throw .needsKey(service: name, variable: entry.keyVariable ?? "") }
            return key
        }
        let perPage = request.perPage ?? entry.defaultPerPage
        switch name {
        case "commons":
            return CommonsService(category: request.category ?? "", endpoint: request.base ?? CommonsService.defaultEndpoint,
                                 perBatch: perPage)
        case "openverse":
            return OpenverseService(query: request.query ?? "", base: request.base ?? OpenverseService.defaultBase,
                                   perPage: perPage, includeMature: request.includeNSFW)
        case "unsplash":
            return UnsplashService(query: request.query, accessKey: try key(), base: request.base ?? UnsplashService.defaultBase,
                                  perPage: perPage)
        case "pexels":
            return PexelsService(query: request.query, key: try key(), base: request.base ?? PexelsService.defaultBase, perPage: perPage)
        case "flickr":
            return FlickrService(query: request.query, key: try key(), endpoint: request.base ?? FlickrService.defaultEndpoint,
                                perPage: perPage, includeNSFW: request.includeNSFW)
        default:
            guard let base = request.base else { throw .unusable(service: name, reason: "needs the API's base URL") }
            return FiveHundredPxService(base: base, consumerKey: request.key, perPage: perPage)
        }
    }

    /// The download settings a run of `service` needs: its image hosts get the API's descriptive agent
    /// (Wikimedia asks it of both), and no more downloads at once per host than the service asks for.
    public static func configure(_ configuration: inout TransferConfiguration, for service: String, userAgent: String) {
        configuration.userAgent = userAgent
        if let cap = entry(named: service)?.maxConcurrentPerHost {
            configuration.maxConcurrentPerHost = min(configuration.maxConcurrentPerHost, cap)
        }
    }
}
