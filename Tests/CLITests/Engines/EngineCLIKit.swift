import Foundation
import GalleryTestSupport
import Testing

/// Runs `deploy/ray/launch.py` and `deploy/spark/launch.py` on the real engines in local mode (2 CPUs).
enum EngineCLIKit {
    enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case ray, spark

        /// The Python module the launcher imports.
        var module: String { self == .ray ? "ray" : "pyspark" }
        var testDescription: String { rawValue }
    }

    static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../deploy").standardized.path

    /// Fails (never skips) when python3 cannot import the engine.
    static func requireEngine(_ engine: Engine, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try ProcessRunner.run("python3", ["-c", "import \(engine.module)"], timeout: 180)
        try #require(result.exitCode == 0,
                     "python3 cannot import \(engine.module) (Scripts/bootstrap installs ray and pyspark): \(result.stderrText)",
                     sourceLocation: sourceLocation)
    }

    /// `python3 deploy/ENGINE/launch.py --shards N --cpus 2 -- ARGUMENTS`, the worker binary `binary`.
    static func launch(_ engine: Engine, shards: Int, _ arguments: [String], binary: String = GalleryCLIKit.binary) throws -> ProcessRunner {
        try ProcessRunner("python3", [deploy + "/\(engine.rawValue)/launch.py", "--shards", String(shards), "--cpus", "2", "--"] + arguments,
                          environment: ["FETCH_GALLERY": binary, "RAY_USAGE_STATS_ENABLED": "0", "SPARK_LOCAL_IP": "127.0.0.1"])
    }

    /// How a wait on a running job ended.
    enum Wait: Equatable, CustomStringConvertible {
        case reached, jobEnded, passedBy, backstop
        var description: String {
            switch self {
            case .reached: "reached"
            case .jobEnded: "the job ended first"
            case .passedBy: "the job went past that state before it was seen"
            case .backstop: "the job neither got there nor ended in \(Int(EngineCLIKit.backstop)) s"
            }
        }
    }

    /// Far beyond any start of an engine seen on a loaded machine: a wait only ends here when the job hangs.
    static let backstop = 1_200.0

    /// Waits for `condition`, as long as the job runs: an engine's start takes 10 s on an idle machine and
    /// minutes on a loaded one, so the wait ends on events (the state reached, the job's end, `passed`: the
    /// state will not come any more), never on a guess at how long the engine takes.
    static func waitFor(_ job: ProcessRunner, _ condition: () -> Bool, passed: () -> Bool = { false }) async throws -> Wait {
        let deadline = Date().addingTimeInterval(backstop)
        while Date() < deadline {
            if condition() { return .reached }
            if passed() { return .passedBy }
            if job.hasExited { return condition() ? .reached : .jobEnded }
            try await Task.sleep(for: .milliseconds(20))
        }
        return .backstop
    }

    /// The parent of process `pid` (from /proc), or nil when there is no such process.
    static func parent(of pid: Int32) -> Int32? {
        procStat(pid).flatMap { Int32($0[1]) }
    }

    /// Whether `pid` is still running: it exists and is not a zombie (killed, waiting to be reaped).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let fields = procStat(pid) else { return false }
        return fields[0] != "Z" && fields[0] != "X"
    }

    /// A process's command line, its arguments joined by spaces.
    static func commandLine(_ pid: Int32) -> String {
        let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
        return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ").trimmingCharacters(in: .whitespaces)
    }

    /// /proc/PID/stat's fields after the command's name: state, parent, ...
    private static func procStat(_ pid: Int32) -> [String]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: end)...].split(separator: " ").map(String.init)
        return fields.count > 2 ? fields : nil
    }

    /// A webdataset-format dataset as its readers see it, by key: `status` and `error` from the parquet
    /// metadata (every row), and the SHA-256 of each of the sample's tar members by extension (jpg, txt, json).
    static func datasetSamples(_ folder: String) async throws -> [String: [String: String]] {
        let script = #"""
        import glob, hashlib, json, sys, tarfile
        import pyarrow.parquet as pq
        samples = {}
        for path in sorted(glob.glob(sys.argv[1] + "/*.parquet")):
            for row in pq.read_table(path, columns=["key", "status", "error_message"]).to_pylist():
                samples[row["key"]] = {"status": row["status"], "error": str(row["error_message"])}
        for path in sorted(glob.glob(sys.argv[1] + "/*.tar")):
            with tarfile.open(path) as tar:
                for member in tar.getmembers():
                    key, _, extension = member.name.partition(".")
                    samples.setdefault(key, {})[extension] = hashlib.sha256(tar.extractfile(member).read()).hexdigest()
        print(json.dumps(samples))
        """#
        let result = try ProcessRunner.run("python3", ["-c", script, folder], timeout: 300)
        guard result.exitCode == 0,
              let samples = try? JSONDecoder().decode([String: [String: String]].self, from: Data(result.stdoutText.utf8)) else {
            throw DatasetCLIError.reader("\(folder): \(result.stderrText)")
        }
        return samples
    }

    /// A stand-in for the binary the launcher runs: it notes each call's process id and arguments in
    /// a log, then becomes the real binary (exec), so the test can kill a chosen shard's process.
    struct Wrapper {
        let path: String
        let log: String

        init(in dir: TempDirectory) throws {
            path = dir.file("fetch-gallery-wrapper")
            log = dir.file("calls.log")
            let script = "#!/bin/sh\necho \"$$ $*\" >> '\(log)'\nexec '\(GalleryCLIKit.binary)' \"$@\"\n"
            try script.write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }

        /// Every call so far: its process id and its arguments as one line.
        func calls() -> [(pid: Int32, arguments: String)] {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, let pid = Int32(parts[0]) else { return nil }
                return (pid, String(parts[1]))
            }
        }

        /// The calls that ran shard `shard` (e.g. "1/4").
        func runs(of shard: String) -> [(pid: Int32, arguments: String)] {
            calls().filter { $0.arguments.hasSuffix("--shard \(shard)") }
        }
    }
}
