import Foundation
import GallerySync
#if canImport(Glibc)
import Glibc
#endif

/// A real S3 service for the tests: Ceph's RADOS Gateway (Debian's ceph 16.2, installed by
/// Scripts/bootstrap) on a one-node cluster of one monitor and one in-memory OSD (``CephConfig``),
/// the three daemons in the foreground as children of the test process, in a private temp folder.
/// A user with the known keys ``accessKey`` / ``secretKey`` is created; tests make a bucket each
/// (``makeBucket(_:)``). Starting takes ~13 s, so one gateway serves the whole test process
/// (``shared()``) and is stopped when the process exits.
///
/// ```swift
/// let gateway = try RadosGateway.shared()
/// let bucket = try gateway.makeBucket()
/// // http://127.0.0.1:PORT/BUCKET/KEY, signed with gateway.accessKey / gateway.secretKey
/// ```
public final class RadosGateway: @unchecked Sendable {
    /// Where Debian's packages put the daemons and tools.
    public static let programs = (monitor: "/usr/bin/ceph-mon", osd: "/usr/bin/ceph-osd", gateway: "/usr/bin/radosgw",
                                  admin: "/usr/bin/radosgw-admin", ceph: "/usr/bin/ceph")
    /// The test user's keys (created by `radosgw-admin user create`).
    public let accessKey = "FGTESTACCESSKEY00001"
    public let secretKey = "fg-test-secret-key-never-printed-0000001"
    /// The region the gateway accepts in signatures (any; the default zonegroup's).
    public let region = "us-east-1"

    /// The private folder: ceph.conf, the monitor's store, sockets and logs.
    public let directory: TempDirectory
    let config: CephConfig
    private var daemons: [(name: String, runner: ProcessRunner)] = []

    /// `http://127.0.0.1:PORT`, path-style addressing.
    public var endpoint: String { "http://127.0.0.1:\(config.gatewayPort)" }
    /// The gateway's port (virtual-hosted requests go to `http://BUCKET.localhost:PORT`).
    public var port: UInt16 { config.gatewayPort }

    /// Whether the packages are installed.
    public static var isInstalled: Bool {
        [programs.monitor, programs.osd, programs.gateway, programs.admin, programs.ceph]
            .allSatisfy(FileManager.default.isExecutableFile(atPath:))
    }

    private static let sharedGateway = Locked<Result<RadosGateway, TestSupportError>?>(nil)

    /// The gateway of this test process, started on first use and stopped at exit. A failed start is
    /// remembered: every later caller gets the same error at once.
    public static func shared() throws(TestSupportError) -> RadosGateway {
        let result = sharedGateway.withLock { slot in
            if let slot { return slot }
            let started = Result { () throws(TestSupportError) in try RadosGateway() }
            slot = started
            if case .success = started { atexit { RadosGateway.stopShared() } }
            return started
        }
        return try result.get()
    }

    /// ``shared()`` from async code. The start (~13 s) runs on a thread of its own, and callers await
    /// it without holding any thread: blocking a thread of the cooperative pool (one per core) or of
    /// ``DedicatedTaskExecutor`` (whose queue GCD also keeps to about one thread per core) stalled every
    /// other test of the process meanwhile, timing tests included.
    public static func started() async throws(TestSupportError) -> RadosGateway {
        let start = startup.withLock { slot in
            if let slot { return slot }
            let task = Task {
                await withHandOffContinuation { (done: HandOffContinuation<Result<RadosGateway, TestSupportError>, Never>) in
                    Thread.detachNewThread { done.resume(returning: Result { () throws(TestSupportError) in try shared() }) }
                }
            }
            slot = task
            return task
        }
        return try await start.value.get()
    }

    private static let startup = Locked<Task<Result<RadosGateway, TestSupportError>, Never>?>(nil)

    private static func stopShared() {
        if case .success(let gateway)? = sharedGateway.withLock({ $0 }) {
            gateway.stop()
            gateway.directory.remove()
        }
    }

    /// Starts the monitor, the OSD and the gateway, creates the test user, and waits (up to `timeout`
    /// s in all) until the gateway answers.
    public init(timeout: Double = 60) throws(TestSupportError) {
        guard Self.isInstalled else {
            throw .launchFailed(executable: Self.programs.gateway, reason:
                "Ceph's RADOS Gateway is not installed; run Scripts/bootstrap (installs ceph-mon ceph-osd radosgw ceph-common)")
        }
        directory = try TempDirectory(prefix: "rgw")
        config = CephConfig(directory: directory.path, fsid: UUID().uuidString.lowercased(),
                            monitorPort: try Socket.freeLoopbackPort(), gatewayPort: try Socket.freeLoopbackPort())
        let deadline = Date().addingTimeInterval(timeout)
        do {
            try prepareFolder()
            try run(Self.programs.monitor, ["--mkfs", "-i", "a", "--fsid", config.fsid])
            try launch("mon.a", Self.programs.monitor, ["-i", "a", "-f"])
            // `osd new` registers the OSD under a uuid; `--mkfs` must be given the same one, or the
            // OSD starts but never comes up.
            let osdUUID = UUID().uuidString.lowercased()
            // The monitor may not answer commands yet ("EPERM: problem getting command descriptions from
            // mon", seen on a loaded machine): asked again until the deadline.
            try runAgainUntil(deadline, Self.programs.ceph, ["osd", "new", osdUUID, "0"])
            try run(Self.programs.osd, ["-i", "0", "--mkfs", "--osd-uuid", osdUUID])
            try startOSD(until: deadline)
            try launch("client.rgw", Self.programs.gateway, ["-n", "client.rgw", "-f"])
            try waitForGateway(until: deadline)
            try run(Self.programs.admin, ["user", "create", "--uid=fgtest", "--display-name=fetch-gallery tests",
                                          "--access-key=\(accessKey)", "--secret-key=\(secretKey)"])
        } catch {
            stop()
            directory.remove()
            throw error
        }
    }

    deinit { stop() }

    /// Ends the gateway, the OSD and the monitor (by their pids), in that order.
    public func stop() {
        for daemon in daemons.reversed() {
            daemon.runner.send(SIGTERM)
            if daemon.runner.wait(timeout: 10).timedOut { daemon.runner.send(SIGKILL) }
        }
        daemons = []
    }

    /// The SHA-256 of an empty payload, which every bodiless signed request declares.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Creates a bucket with a fresh name (`fg-` and 20 random characters, or `prefix`-...) and
    /// returns its name. Uses curl's own SigV4 signing, so a bucket exists whatever the client
    /// under test does.
    public func makeBucket(_ prefix: String = "fg") throws(TestSupportError) -> String {
        let name = prefix + "-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        let status = try signedCurl(["-X", "PUT", "\(endpoint)/\(name)"])
        guard status == "200" else {
            throw .launchFailed(executable: "curl", reason: "creating bucket \(name) answered HTTP \(status)")
        }
        return name
    }

    /// Runs curl with this gateway's credentials (SigV4) and returns the HTTP status it printed.
    func signedCurl(_ arguments: [String]) throws(TestSupportError) -> String {
        let result = try ProcessRunner.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}",
            "--aws-sigv4", "aws:amz:\(region):s3", "--user", "\(accessKey):\(secretKey)",
            "-H", "x-amz-content-sha256: \(Self.emptyPayloadHash)"] + arguments, timeout: 30)
        return result.stdoutText
    }

    /// The daemons' logs, for a failing test's message.
    public func logs() -> String {
        ["mon.a", "osd.0", "client.rgw"].map { name in
            let text = (try? String(contentsOfFile: directory.file("log/\(name).log"), encoding: .utf8)) ?? "(none)"
            return "--- \(name).log (end) ---\n" + String(text.suffix(4000))
        }.joined(separator: "\n")
    }

    /// The daemons' resident memory in bytes (VmRSS summed), for the harness's own measurements.
    public var residentBytes: Int {
        daemons.reduce(0) { sum, daemon in
            let status = (try? String(contentsOfFile: "/proc/\(daemon.runner.pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return sum + (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
    }

    private func prepareFolder() throws(TestSupportError) {
        for sub in ["run", "log", "mon", "osd/ceph-0", "rgw"] {
            do { try FileManager.default.createDirectory(atPath: directory.file(sub), withIntermediateDirectories: true) } catch {
                throw .system(operation: "mkdir \(directory.file(sub))", errno: errno)
            }
        }
        do { try config.render().write(toFile: config.path, atomically: true, encoding: .utf8) } catch {
            throw .system(operation: "write \(config.path)", errno: errno)
        }
    }

    /// Runs a Ceph tool against this cluster; a failure names the command and its output.
    @discardableResult
    func run(_ program: String, _ arguments: [String], timeout: Double = 30) throws(TestSupportError) -> ProcessResult {
        let result = try ProcessRunner.run(program, ["-c", config.path] + arguments, timeout: timeout)
        guard result.exitCode == 0 else {
            throw .launchFailed(executable: program, reason: "\(arguments.joined(separator: " ")) exited with "
                + "\(result.exitCode.map(String.init) ?? "a signal")\(result.timedOut ? " (timed out)" : ""): "
                + result.stderrText + result.stdoutText + "\n" + logs())
        }
        return result
    }

    /// ``run(_:_:timeout:)`` tried again every half second until it succeeds or `deadline` passes.
    private func runAgainUntil(_ deadline: Date, _ program: String, _ arguments: [String]) throws(TestSupportError) {
        while true {
            do {
                try run(program, arguments)
                return
            } catch {
                guard Date().addingTimeInterval(0.5) < deadline else { throw error }
                usleep(500_000)
            }
        }
    }

    private func launch(_ name: String, _ program: String, _ arguments: [String]) throws(TestSupportError) {
        let runner = try ProcessRunner(program, ["-c", config.path] + arguments)
        daemons.append((name, runner))
    }

    /// Starts the OSD and waits until the monitor counts it up. Now and then (once in the first five runs
    /// here, on a loaded machine) ceph-osd 16.2 sends its first command before it has the cluster's fsid, is refused
    /// ("wrong fsid") and exits: it is started again, up to 3 times.
    private func startOSD(until deadline: Date) throws(TestSupportError) {
        for attempt in 1...3 {
            try launch("osd.0", Self.programs.osd, ["-i", "0", "-f"])
            let osd = daemons.last!.runner
            while Date() < deadline, !osd.hasExited {
                let stat = try? ProcessRunner.run(Self.programs.ceph, ["-c", config.path, "osd", "stat"], timeout: 10)
                if stat?.stdoutText.contains("1 up") == true { return }
                usleep(250_000)
            }
            daemons.removeLast()
            guard attempt < 3, Date() < deadline else {
                throw .launchFailed(executable: "osd.0", reason: (osd.hasExited ? "exited during start-up\n" : "not up in time\n")
                    + osd.stderrText + "\n" + logs())
            }
            osd.send(SIGKILL)
            _ = osd.wait(timeout: 5)
        }
    }

    /// An anonymous GET / answers 200 once the gateway reaches the cluster.
    private func waitForGateway(until deadline: Date) throws(TestSupportError) {
        while Date() < deadline {
            if let exited = daemons.first(where: { $0.runner.hasExited }) {
                throw .launchFailed(executable: exited.name, reason: "exited during start-up\n"
                    + exited.runner.stderrText + "\n" + logs())
            }
            let probe = try? ProcessRunner.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-m", "2",
                                                        endpoint + "/"], timeout: 5)
            if probe?.stdoutText == "200" { return }
            usleep(250_000)
        }
        throw .launchFailed(executable: Self.programs.gateway, reason: "the gateway did not answer on \(endpoint) in time\n" + logs())
    }
}
