import ArgumentParser
import Foundation

/// `--ca-certificates FILE`, shared by the commands that download: one declaration, one check.
struct CertificateOptions: ParsableArguments {
    @Option(name: .customLong("ca-certificates"),
            help: ArgumentHelp("PEM file of CA certificates to trust for https instead of the system's.", valueName: "file"))
    var caCertificates: String?

    func validate() throws {
        if let caCertificates, !FileManager.default.isReadableFile(atPath: caCertificates) {
            throw ValidationError("cannot read the CA certificates file \(caCertificates)")
        }
    }
}
