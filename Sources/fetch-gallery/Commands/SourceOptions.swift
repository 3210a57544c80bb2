import ArgumentParser
import Foundation
import GalleryKit

/// What `run` and `plan` read, declared once for both: `--api` or `--urls` or `--source` and what each
/// service needs (`--category`, `--query`, a key), how many pages, which rendition, NSFW or not, and
/// `--rate-limit-wait`; mapped here to a ``GalleryJob``'s source and settings.
struct SourceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Base URL of a 500px-style photo API, or of the --source service (a mirror, a proxy, a test server).",
                               valueName: "url"))
    var api: String?

    @Option(name: .customLong("consumer-key"), help: "API consumer key, sent as the consumer_key query parameter.")
    var consumerKey: String?

    @Option(help: ArgumentHelp("A file of image URLs, one per line, instead of an API.", valueName: "file"))
    var urls: String?

    @Option(help: "Listing pages to read (50 photos each); stops early at the API's last page.")
    var pages = 5

    @Option(name: .customLong("image-size"), help: "The image size to download when the API offers it, instead of the largest.")
    var imageSize: Int?

    @Flag(name: .customLong("include-nsfw"), help: "Keep photos the API marks NSFW (left out by default).")
    var includeNSFW = false

    @Option(help: ArgumentHelp("""
        The photo service: commons, openverse, unsplash, pexels, flickr or 500px (the default when --api is \
        given alone). With neither --source nor --api, the built-in demo catalogue is used.
        """, valueName: "name"))
    var source: String?

    @Option(help: ArgumentHelp("The Wikimedia Commons category (--source commons), e.g. \"Featured pictures of landscapes\".",
                               valueName: "name"))
    var category: String?

    @Option(help: ArgumentHelp("Search words (--source openverse, unsplash, pexels, flickr); without it Unsplash lists its "
                               + "editorial feed, Pexels its curated photos and Flickr today's interesting photos.",
                               valueName: "words"))
    var query: String?

    @Option(help: ArgumentHelp("""
        The service's API key (else from UNSPLASH_ACCESS_KEY, PEXELS_API_KEY or FLICKR_API_KEY). Never written \
        to the gallery, the journal, the progress output or an error message.
        """, valueName: "key"))
    var key: String?

    @Option(name: .customLong("per-page"),
            help: ArgumentHelp("Photos per page or batch of a --source service (default: 50 for Commons, 20 for Openverse "
                               + "(its anonymous maximum), 30 for Unsplash, 80 for Pexels, 100 for Flickr).", valueName: "n"))
    var perPage: Int?

    @Option(name: .customLong("rate-limit-wait"),
            help: ArgumentHelp("""
                The longest wait, in seconds, for a service's rate limit; when its budget resets later than this, \
                the source stops (exit status 3) keeping everything done, and a re-run carries on.
                """, valueName: "seconds"))
    var rateLimitWait: Double = PhotoServices.defaultRateLimitWait

    /// The services `--source` accepts (GalleryKit's ``PhotoServices``).
    static var names: [String] { PhotoServices.names }

    func validate() throws {
        guard api == nil || urls == nil else { throw ValidationError("give --api or --urls, not both") }
        if let api {
            guard let url = URL(string: api), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
            else { throw ValidationError("--api must be an http(s) URL, e.g. https://api.example.com/v1") }
        }
        guard pages >= 1 else { throw ValidationError("--pages must be at least 1") }
        if source != nil, urls != nil { throw ValidationError("give --source or --urls, not both") }
        if let source, !Self.names.contains(source) {
            throw ValidationError("--source must be one of \(Self.names.joined(separator: ", "))")
        }
        if source == "commons", (category ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--source commons needs --category NAME, e.g. --category \"Featured pictures of landscapes\"")
        }
        if source == "openverse", (query ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--source openverse needs --query WORDS")
        }
        if category != nil, source != "commons" { throw ValidationError("--category goes with --source commons") }
        if query != nil, [nil, "commons", "500px"].contains(source) {
            throw ValidationError("--query goes with --source openverse, unsplash, pexels or flickr")
        }
        if let perPage, perPage < 1 { throw ValidationError("--per-page must be at least 1") }
        if let perPage, let source, let most = PhotoServices.entry(named: source)?.maxPerPage, perPage > most {
            throw ValidationError("--per-page is at most \(most) for \(source) (its limit for clients without a token)")
        }
        guard rateLimitWait >= 0 else { throw ValidationError("--rate-limit-wait must not be negative") }
    }

    /// Whether a service other than 500px (and the demo) is chosen.
    var isService: Bool { source != nil && source != "500px" }

    /// The chosen key: `--key`, else the service's environment variable.
    func resolvedKey(environment: [String: String]) -> String? {
        if let key, !key.isEmpty { return key }
        return source.flatMap { PhotoServices.key(for: $0, environment: environment) }
    }

    /// The service's source; `api` replaces its base URL. Throws a usage error naming a missing key.
    func photoSource(api: URL?, includeNSFW: Bool, environment: [String: String]) throws -> (any PhotoService)? {
        guard let source, source != "500px" else { return nil }
        let request = PhotoServices.Request(category: category, query: query, key: resolvedKey(environment: environment),
                                            base: api, perPage: perPage, includeNSFW: includeNSFW)
        do { return try PhotoServices.make(source, request) } catch {
            if case .needsKey(_, let variable) = error {
                throw ValidationError("--source \(source) needs an API key: set \(variable) (or give --key)")
            }
            throw ValidationError("--source \(source) is not available in this build")
        }
    }

    /// Where the photos come from, as `run` and `plan` read it: the URL list, the `--source` service or the
    /// 500px-style `api`; nil when none is given. A URL list that cannot be read is a failure of the
    /// source (exit status 3); a service's usage error (a missing key) is thrown as it is.
    func listing() throws -> GalleryJob.Source? {
        if let urls {
            guard let text = try? String(contentsOfFile: urls, encoding: .utf8) else {
                throw GalleryFailure(.unreadable, "cannot read the URL list \(urls)")
            }
            return .urlList(text: text, name: urls)
        }
        if isService {
            return .service(try photoSource(api: api.flatMap { URL(string: $0) }, includeNSFW: includeNSFW,
                                            environment: ProcessInfo.processInfo.environment)!)
        }
        return api.map { .api(base: URL(string: $0)!, consumerKey: consumerKey) }
    }

    /// Sets the job's pages, rendition and NSFW choice, its API User-Agent (`userAgent`, else the default),
    /// its longest rate-limit wait and the keys to redact from everything it writes and says.
    func configure(_ job: inout GalleryJob, userAgent: String?) {
        job.pages = pages
        job.imageSize = imageSize
        job.includeNSFW = includeNSFW
        job.userAgent = userAgent ?? job.userAgent
        job.rateLimitWait = rateLimitWait
        job.secrets = [resolvedKey(environment: ProcessInfo.processInfo.environment), consumerKey].compactMap { $0 }
    }
}
