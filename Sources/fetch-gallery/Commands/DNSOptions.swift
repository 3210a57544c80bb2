import ArgumentParser
import Foundation
import GalleryKit

/// How `run`, `download` and `dataset` resolve host names: in-process, through one cache shared by every
/// download of the command, forwarding to the system's nameservers or to the ones given, or recursing
/// from the root servers.
struct DNSOptions: ParsableArguments {
    enum Mode: String, ExpressibleByArgument, CaseIterable {
        case forward, recursive
    }

    @Option(name: .customLong("dns"), help: ArgumentHelp("""
        forward: ask the nameservers of /etc/resolv.conf or --dns-server (default). recursive: resolve from the \
        root servers inside the process (no resolver needed on the machine, no root privileges).
        """, valueName: "mode"))
    var mode: Mode = .forward

    @Option(name: .customLong("dns-root-hints"), help: ArgumentHelp(
        "With --dns recursive: start from the root servers listed in FILE (named.root's format) instead of the real ones.",
        valueName: "file"))
    var rootHints: String?

    @Option(name: .customLong("dns-server"), help: ArgumentHelp("""
        A nameserver to ask for host names (repeatable; tried in turn when one does not answer). Default: the \
        nameservers of /etc/resolv.conf. Each name is asked once per type and TTL (kept at least 5 minutes), \
        at a pace that backs off when the resolver stops answering.
        """, valueName: "host[:port]"))
    var dnsServers: [String] = []

    func validate() throws {
        if mode == .recursive, !dnsServers.isEmpty {
            throw ValidationError("--dns-server forwards to a nameserver; --dns recursive asks the root servers: give one or the other")
        }
        if rootHints != nil, mode != .recursive { throw ValidationError("--dns-root-hints needs --dns recursive") }
        for text in dnsServers where DNSServer(text) == nil {
            throw ValidationError("--dns-server \(text): give an IP address with an optional port (127.0.0.53, 10.0.0.2:5353, [::1]:53)")
        }
    }

    /// The command's resolver. A resolver given with --dns-server is checked now (a dead or mistyped one
    /// stops the command before any download, exit status 3); the system's is checked when a name first
    /// goes unanswered, and `alarm` stops the command then if it never answers at all. nil when no server is given
    /// and /etc/resolv.conf names none.
    func resolver(alarm: ResolverAlarm = ResolverAlarm()) async throws -> (any NameResolver)? {
        if mode == .recursive { return try await recursiveResolver() }
        let given = dnsServers.isEmpty ? nil : dnsServers.compactMap(DNSServer.init)
        // A machine without a usable /etc/resolv.conf (a bare container) still runs: libcurl resolves then,
        // as before, per transfer.
        if given == nil, (try? DNSServer.system()) == nil { return nil }
        let resolver: ForwardingResolver
        do {
            resolver = try ForwardingResolver(servers: given, onUnreachable: { error in alarm.raise(error) })
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

    /// The recursive resolver, checked now: the root servers must answer before any download.
    private func recursiveResolver() async throws -> RecursiveResolver {
        do throws(DNSSetupError) {
            let resolver = try RecursiveResolver(rootHints: rootHints)
            try await resolver.probe()
            return resolver
        } catch {
            throw GalleryFailure(.unreadable, error.description)
        }
    }
}
