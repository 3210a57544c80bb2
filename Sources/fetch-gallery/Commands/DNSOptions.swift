import ArgumentParser
import Foundation
import GalleryKit

/// How `run`, `download` and `dataset` resolve host names: in-process, through one cache shared by every
/// download of the command, forwarding to the system's nameservers or to the ones given.
struct DNSOptions: ParsableArguments {
    @Option(name: .customLong("dns-server"), help: ArgumentHelp("""
        A nameserver to ask for host names (repeatable; tried in turn when one does not answer). Default: the \
        nameservers of /etc/resolv.conf. Each name is asked once per type and TTL (kept at least 5 minutes), \
        at a pace that backs off when the resolver stops answering.
        """, valueName: "host[:port]"))
    var dnsServers: [String] = []

    func validate() throws {
        for text in dnsServers where DNSServer(text) == nil {
            throw ValidationError("--dns-server \(text): give an IP address with an optional port (127.0.0.53, 10.0.0.2:5353, [::1]:53)")
        }
    }

    /// The command's resolver. A resolver given with --dns-server is checked now (a dead or mistyped one
    /// stops the command before any download, exit status 3); the system's is checked when a name first
    /// goes unanswered, and the command stops then if it never answers at all. nil when no server is given
    /// and /etc/resolv.conf names none.
    func resolver() async throws -> ForwardingResolver? {
        let given = dnsServers.isEmpty ? nil : dnsServers.compactMap(DNSServer.init)
        // A machine without a usable /etc/resolv.conf (a bare container) still runs: libcurl resolves then,
        // as before, per transfer.
        if given == nil, (try? DNSServer.system()) == nil { return nil }
        let resolver: ForwardingResolver
        do {
            resolver = try ForwardingResolver(servers: given, onUnreachable: { error in
                StandardError.line("error: \(error.description)")
                Foundation.exit(GalleryOutcome.unreadable.exitStatus)
            })
        } catch {
            throw GalleryFailure(.unreadable, error.description)
        }
        guard given != nil else { return resolver }
        do {
            let silent = try await resolver.probe()
            for server in silent { StandardError.line("warning: the DNS resolver \(server) did not answer; asking the others") }
        } catch {
            throw GalleryFailure(.unreadable, error.description)
        }
        return resolver
    }
}
