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
