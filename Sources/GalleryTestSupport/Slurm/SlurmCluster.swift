import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real one-node Slurm cluster (Debian's slurm-wlm 22.05 and munge, installed by
/// Scripts/bootstrap) for the tests: a private `munged`, then `slurmctld` and `slurmd` in the
/// foreground as children of the test process, all configured in a private temp folder
/// (``SlurmConfig``). Commands (`sbatch`, `squeue`, `scancel`, `scontrol`) reach it through
/// ``environment`` (`SLURM_CONF`). `stop()` (also run by `deinit`) ends the three daemons by pid.
///
/// ```swift
/// let cluster = try SlurmCluster()
/// let job = try cluster.submit(["--array=0-3", script])
/// try cluster.waitForJobs([job], timeout: 120)
/// ```
public final class SlurmCluster: @unchecked Sendable {
    /// Where Debian's packages put the daemons.
    public static let daemons = (controller: "/usr/sbin/slurmctld", node: "/usr/sbin/slurmd", munge: "/usr/sbin/munged")

    /// The private folder: slurm.conf, logs, state, the munge socket, and job output.
    public let directory: TempDirectory
    /// The node's name (this machine's hostname) and CPUs.
    public let hostname: String
    let config: SlurmConfig
    private var controller: ProcessRunner?
    private var node: ProcessRunner?
    private var mungePID: Int32?

    /// Whether the packages are installed (a test that needs the cluster says so when they are not).
    public static var isInstalled: Bool {
        [daemons.controller, daemons.node, daemons.munge, "/usr/bin/sbatch"].allSatisfy(FileManager.default.isExecutableFile(atPath:))
    }

    /// Starts munged, slurmctld and slurmd and waits (up to `timeout` s) until the node is idle.
    public init(timeout: Double = 30) throws(TestSupportError) {
        guard Self.isInstalled else {
            throw .launchFailed(executable: Self.daemons.controller, reason: "Slurm is not installed; run Scripts/bootstrap (installs slurm-wlm and munge)")
        }
        directory = try TempDirectory(prefix: "slurm")
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count)
        hostname = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        config = SlurmConfig(directory: directory.path, hostname: hostname, cpus: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
                             controllerPort: try Socket.freeLoopbackPort(), nodePort: try Socket.freeLoopbackPort())
        do {
            try prepareFolder()
            try startMunge()
            controller = try ProcessRunner(Self.daemons.controller, ["-D", "-i"], environment: environment)
            node = try ProcessRunner(Self.daemons.node, ["-D"], environment: environment)
            try waitUntilIdle(timeout: timeout)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// What a Slurm command needs to reach this cluster.
    public var environment: [String: String] { ["SLURM_CONF": directory.file("slurm.conf")] }

    /// Ends slurmd, slurmctld and munged (by their pids), and waits for the two children.
    public func stop() {
        for daemon in [node, controller].compactMap({ $0 }) {
            daemon.send(SIGTERM)
            _ = daemon.wait(timeout: 15)
        }
        node = nil
        controller = nil
        if let pid = mungePID { kill(pid, SIGTERM) }
        mungePID = nil
    }

    /// The controller's and the node's logs, for a failing test's message.
    public func logs() -> String {
        ["slurmctld.log", "slurmd.log", "munge/munged.log"].map { name in
            "--- \(name) ---\n" + ((try? String(contentsOfFile: directory.file(name), encoding: .utf8)) ?? "(none)")
        }.joined(separator: "\n")
    }

    private func prepareFolder() throws(TestSupportError) {
        for sub in ["state", "spool", "munge", "out"] {
            do { try FileManager.default.createDirectory(atPath: directory.file(sub), withIntermediateDirectories: true) } catch {
                throw .system(operation: "mkdir \(directory.file(sub))", errno: errno)
            }
        }
        // munged runs as the munge user: its folder is its own, and every folder above must be searchable.
        chmod(directory.path, 0o755)
        guard let munge = getpwnam("munge") else { throw .launchFailed(executable: Self.daemons.munge, reason: "no munge user") }
        chown(directory.file("munge"), munge.pointee.pw_uid, munge.pointee.pw_gid)
        chmod(directory.file("munge"), 0o755)
        do { try config.render().write(toFile: directory.file("slurm.conf"), atomically: true, encoding: .utf8) } catch {
            throw .system(operation: "write \(directory.file("slurm.conf"))", errno: errno)
        }
    }

    /// munged daemonizes: its pid comes from its pid file.
    private func startMunge() throws(TestSupportError) {
        let folder = directory.file("munge")
        let result = try ProcessRunner.run("/usr/sbin/runuser", ["-u", "munge", "--", Self.daemons.munge,
            "--socket=\(config.mungeSocket)", "--pid-file=\(folder)/munged.pid", "--seed-file=\(folder)/seed",
            "--log-file=\(folder)/munged.log"], timeout: 15)
        guard result.exitCode == 0,
              let text = try? String(contentsOfFile: folder + "/munged.pid", encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw .launchFailed(executable: Self.daemons.munge, reason: result.stderrText) }
        mungePID = pid
    }

    private func waitUntilIdle(timeout: Double) throws(TestSupportError) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let state = try? command("sinfo", ["-h", "-o", "%T"])
            if state?.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "idle" { return }
            usleep(200_000)
        }
        throw .launchFailed(executable: Self.daemons.controller, reason: "the node did not become idle in \(timeout) s\n" + logs())
    }
}
