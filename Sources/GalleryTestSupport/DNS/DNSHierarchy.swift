import Foundation

/// A small DNS tree of real authoritative servers for the recursive resolver's tests: Debian's nsd
/// (Scripts/bootstrap installs it) serving a root zone, one top-level domain `zz` and a zone under it,
/// each on port 53 of its own loopback address (127.X.Y.1-3, X and Y random so parallel test processes
/// never meet), and a root hints file naming the root. A resolver given the hints can only reach these
/// servers: no question ever goes to the real root.
///
/// ```swift
/// let web = try DNSHierarchy(["a": .a("127.0.0.1"), "b": .cname("a.web.zz.")])
/// // --dns recursive --dns-root-hints web.hintsPath; "a.web.zz" resolves to 127.0.0.1
/// ```
public final class DNSHierarchy: Sendable {
    public enum Record: Sendable {
        case a(String), aaaa(String), cname(String)
        /// The name is a zone of its own, served by the server on port 53 of this address (a
        /// ``TestDNSServer`` with scripted behaviours, for instance).
        case delegation(String)
    }

    /// The zone the records live in: `web.zz`.
    public let zone = "web.zz"
    /// A `named.root`-style hints file for `--dns-root-hints`.
    public let hintsPath: String
    /// The authorities' addresses: root, the TLD, the zone.
    public let addresses: [String]
    private let directory: TempDirectory
    private let servers: [ProcessRunner]

    /// Starts the three servers with `records` (names relative to ``zone``) in the zone, their TTLs
    /// `ttl`; with `zoneServerUp: false` the zone's own server is never started (a dead authority).
    public init(_ records: [String: Record], ttl: Int = 600, zoneServerUp: Bool = true) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/sbin/nsd") else {
            throw TestSupportError.launchFailed(executable: "/usr/sbin/nsd", reason: "nsd is not installed (Scripts/bootstrap)")
        }
        directory = try TempDirectory(prefix: "dns-tree")
        let base = "127.\(Int.random(in: 100...199)).\(Int.random(in: 0...255))."
        addresses = [base + "1", base + "2", base + "3"]
        let soa = { (origin: String) in "$TTL \(ttl)\n\(origin) IN SOA a.root-servers.zz. admin.zz. 1 3600 600 86400 \(ttl)\n" }
        let zones = [
            (".", soa(".") + """
                . IN NS a.root-servers.zz.
                a.root-servers.zz. IN A \(addresses[0])
                zz. IN NS ns.zz.
                ns.zz. IN A \(addresses[1])

                """),
            ("zz", soa("zz.") + """
                zz. IN NS ns.zz.
                ns.zz. IN A \(addresses[1])
                a.root-servers.zz. IN A \(addresses[0])
                web.zz. IN NS ns.web.zz.
                ns.web.zz. IN A \(addresses[2])

                """),
            ("web.zz", soa("web.zz.") + "web.zz. IN NS ns.web.zz.\nns.web.zz. IN A \(addresses[2])\n"
                + records.sorted { $0.key < $1.key }.map { name, record in
                    switch record {
                    case .a(let address): "\(name).web.zz. IN A \(address)"
                    case .aaaa(let address): "\(name).web.zz. IN AAAA \(address)"
                    case .cname(let target): "\(name).web.zz. IN CNAME \(target)"
                    case .delegation(let address): "\(name).web.zz. IN NS ns.\(name).web.zz.\nns.\(name).web.zz. IN A \(address)"
                    }
                }.joined(separator: "\n") + "\n"),
        ]
        hintsPath = try directory.write(Array(". 3600000 NS A.ROOT-SERVERS.ZZ.\nA.ROOT-SERVERS.ZZ. 3600000 A \(addresses[0])\n".utf8),
                                        to: "root.hints")
        var started: [ProcessRunner] = []
        for (index, (name, text)) in zones.enumerated() where zoneServerUp || index < 2 {
            let folder = directory.file("zone\(index)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = try directory.write(Array(text.utf8), to: "zone\(index)/zone")
            let conf = """
                server:
                  ip-address: \(addresses[index])
                  port: 53
                  database: ""
                  zonesdir: "\(folder)"
                  pidfile: "\(folder)/nsd.pid"
                  xfrdfile: "\(folder)/xfrd.state"
                  zonelistfile: "\(folder)/zone.list"
                  logfile: "\(folder)/nsd.log"
                  username: ""
                  server-count: 1
                  rrl-ratelimit: 0
                remote-control:
                  control-enable: no
                zone:
                  name: "\(name)"
                  zonefile: "zone"

                """
            let confPath = try directory.write(Array(conf.utf8), to: "zone\(index)/nsd.conf")
            let server = try ProcessRunner("/usr/sbin/nsd", ["-d", "-c", confPath])
            started.append(server)
            let deadline = Date().addingTimeInterval(10)
            func log() -> String { (try? String(contentsOfFile: folder + "/nsd.log", encoding: .utf8)) ?? "" }
            while !log().contains("nsd started") {
                guard Date() < deadline, !server.hasExited else {
                    for s in started { s.send(SIGTERM) }
                    throw TestSupportError.launchFailed(executable: "nsd for \(name)", reason: server.stderrText + log())
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            guard !log().contains("error") else {
                for s in started { s.send(SIGTERM) }
                throw TestSupportError.launchFailed(executable: "nsd for \(name)", reason: log())
            }
        }
        servers = started
    }

    /// `name`.web.zz
    public func host(_ name: String) -> String { "\(name).\(zone)" }

    public func stop() {
        for server in servers where !server.hasExited {
            server.send(SIGTERM)
            _ = server.wait(timeout: 5)
        }
    }

    deinit { stop() }
}
