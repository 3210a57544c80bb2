import ArgumentParser
import GalleryKit

/// The download options `run` and `download` share: one declaration, one check, one configuration.
struct TransferOptions: ParsableArguments {
    @Option(help: "Downloads at once.")
    var jobs = 16

    @Option(name: .customLong("per-host"), help: "Downloads at once per host.")
    var perHost = 6

    @Option(help: "Seconds one download may take across all its attempts.")
    var deadline: Double = 300

    @Flag(help: "fsync every file before publishing it.")
    var durable = false

    @OptionGroup var certificates: CertificateOptions

    func validate() throws {
        guard jobs >= 1, perHost >= 1 else { throw ValidationError("--jobs and --per-host must be at least 1") }
        guard deadline > 0 else { throw ValidationError("--deadline must be positive") }
    }

    /// The engine's configuration for these options, reporting to `observers`.
    func configuration(observers: [any TransferObserver]) -> TransferConfiguration {
        var config = TransferConfiguration()
        config.maxConcurrentTransfers = jobs
        config.maxConcurrentPerHost = perHost
        config.deadline = deadline
        config.durable = durable
        config.caCertificatesPath = certificates.caCertificates
        config.observers = observers
        return config
    }
}
