import ArgumentParser
import GalleryKit

/// The download options `run` and `download` share: one declaration, one check, one configuration.
struct TransferOptions: ParsableArguments {
    @Option(help: "Downloads at once.")
    var jobs = 16

    @Option(name: .customLong("per-host"), help: "Downloads at once per host.")
    var perHost = 6

    @Option(name: .customLong("transfer-threads"), help: ArgumentHelp(
        "Threads that drive the downloads (default: one per 8 cores, at least 2). An https host stays on one of them, so HTTP/2 "
        + "multiplexes its downloads over one connection; the download limits hold across all of them.", valueName: "n"))
    var transferThreads: Int?

    @Option(help: "Seconds one download may take across all its attempts.")
    var deadline: Double = 300

    @Flag(help: "fsync every file before publishing it.")
    var durable = false

    @Option(help: ArgumentHelp("Requests started per second against one host, retries included (default 10; 0: no limit). "
        + "Loopback hosts are left out unless --rate is given.", valueName: "n"))
    var rate: Double?

    @Option(name: .customLong("user-agent"),
            help: ArgumentHelp("The User-Agent sent with every download (default: fetch-gallery, its version and project URL).",
                               valueName: "text"))
    var userAgent: String?

    /// Requests per second per host when --rate is not given.
    static let defaultRate = 10.0

    @OptionGroup var certificates: CertificateOptions

    func validate() throws {
        guard jobs >= 1, perHost >= 1 else { throw ValidationError("--jobs and --per-host must be at least 1") }
        if let transferThreads, !(1...64).contains(transferThreads) {
            throw ValidationError("--transfer-threads must be 1...64")
        }
        guard deadline > 0 else { throw ValidationError("--deadline must be positive") }
        if let rate, !(rate >= 0 && rate.isFinite) { throw ValidationError("--rate must be 0 or more requests per second") }
        if let userAgent, userAgent.isEmpty || userAgent.contains(where: { $0.isNewline }) {
            throw ValidationError("--user-agent must be one non-empty line")
        }
    }

    /// The engine's configuration for these options, reporting to `observers`.
    func configuration(observers: [any TransferObserver]) -> TransferConfiguration {
        var config = TransferConfiguration()
        config.maxConcurrentTransfers = jobs
        config.maxConcurrentPerHost = perHost
        config.deadline = deadline
        if let transferThreads { config.transferLoops = transferThreads }
        config.durable = durable
        config.caCertificatesPath = certificates.caCertificates
        // The default rate is for other people's servers; one's own (loopback) is left alone unless asked.
        let perSecond = rate ?? Self.defaultRate
        config.requestsPerSecondPerHost = perSecond > 0 ? perSecond : nil
        config.rateExemptsLoopback = rate == nil
        if let userAgent { config.userAgent = userAgent }
        config.observers = observers
        return config
    }
}
