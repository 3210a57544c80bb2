import ArgumentParser
import Foundation
import GalleryKit

/// `--source` and what each service needs (`--category`, `--query`, a key) and
/// `--rate-limit-wait`: one declaration, mapped here to a ``PhotoSource``.
struct SourceOptions: ParsableArguments {
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
    func listing(api: String?, consumerKey: String?, urls: String?, includeNSFW: Bool) throws -> GalleryJob.Source? {
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

    /// Sets the job's API User-Agent (`userAgent`, else the default), its longest rate-limit wait and the
    /// keys to redact from everything it writes and says.
    func configure(_ job: inout GalleryJob, userAgent: String?, consumerKey: String?) {
        job.userAgent = userAgent ?? job.userAgent
        job.rateLimitWait = rateLimitWait
        job.secrets = [resolvedKey(environment: ProcessInfo.processInfo.environment), consumerKey].compactMap { $0 }
    }
}
