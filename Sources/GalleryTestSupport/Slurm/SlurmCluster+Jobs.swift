import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension SlurmCluster {
    /// A job as `scontrol show job` reports it.
    public struct JobState: Sendable, Hashable {
        /// `PENDING`, `RUNNING`, `COMPLETED`, `FAILED`, `CANCELLED`, ...
        public var state: String
        /// The exit code of the job's script (the first number of `ExitCode=N:S`).
        public var exitCode: Int?
    }

    /// Runs a Slurm command against this cluster.
    public func command(_ name: String, _ arguments: [String], environment extra: [String: String] = [:],
                        timeout: Double = 30) throws(TestSupportError) -> ProcessResult {
        try ProcessRunner.run(name, arguments, environment: environment.merging(extra) { $1 },
                              currentDirectory: directory.file("out"), timeout: timeout)
    }

    /// `sbatch --parsable ARGUMENTS`; the job id (of an array, its base id).
    public func submit(_ arguments: [String], environment extra: [String: String] = [:]) throws(TestSupportError) -> String {
        let result = try command("sbatch", ["--parsable"] + arguments, environment: extra)
        let id = result.stdoutText.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        guard result.exitCode == 0, !id.isEmpty, id.allSatisfy(\.isNumber) else {
            throw .launchFailed(executable: "sbatch", reason: result.stderrText + result.stdoutText)
        }
        return id
    }

    /// The jobs (array tasks listed one by one, `ID_K`) that `id` names, with their states.
    public func jobs(_ id: String) -> [String: JobState] {
        guard let result = try? command("scontrol", ["-o", "show", "job", id]), result.exitCode == 0 else { return [:] }
        var jobs: [String: JobState] = [:]
        for line in result.stdoutText.split(separator: "\n") {
            var fields: [String: String] = [:]
            for pair in line.split(separator: " ") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            let name = fields["ArrayTaskId"].map { "\(fields["ArrayJobId"] ?? id)_\($0)" } ?? fields["JobId"] ?? id
            jobs[name] = JobState(state: fields["JobState"] ?? "?",
                                  exitCode: fields["ExitCode"]?.split(separator: ":").first.flatMap { Int($0) })
        }
        return jobs
    }

    /// Waits until every job `ids` names has ended (no state left pending, running, completing or
    /// requeued); returns their states. A job that `scontrol` does not report is never taken as ended:
    /// if one is still missing at `timeout`, this throws, naming it.
    public func waitForJobs(_ ids: [String], timeout: Double) throws(TestSupportError) -> [String: JobState] {
        let deadline = Date().addingTimeInterval(timeout)
        let live: Set<String> = ["PENDING", "RUNNING", "COMPLETING", "CONFIGURING", "REQUEUED", "SUSPENDED"]
        while true {
            var all: [String: JobState] = [:]
            var missing: [String] = []
            for id in ids {
                let found = jobs(id)
                if found.isEmpty { missing.append(id) }
                all.merge(found) { $1 }
            }
            if missing.isEmpty, all.values.allSatisfy({ !live.contains($0.state) }) { return all }
            guard Date() < deadline else {
                let what = missing.isEmpty ? "still running" : "not reported by scontrol: \(missing)"
                throw .launchFailed(executable: "sbatch", reason: "jobs \(ids) \(what) after \(timeout) s: \(all)\n" + logs())
            }
            usleep(250_000)
        }
    }

    /// `scancel ARGUMENTS` (e.g. `--signal=KILL`, `--full`, a job id).
    public func cancel(_ arguments: [String]) throws(TestSupportError) {
        let result = try command("scancel", arguments)
        guard result.exitCode == 0 else { throw .launchFailed(executable: "scancel", reason: result.stderrText) }
    }

    /// The output file of job `id` (sbatch `-o` under the cluster's `out/`).
    public func output(_ name: String) -> String {
        (try? String(contentsOfFile: directory.file("out/" + name), encoding: .utf8)) ?? "(no output \(name))"
    }
}
