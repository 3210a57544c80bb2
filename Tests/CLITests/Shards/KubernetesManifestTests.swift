import Foundation
import GalleryTestSupport
import Testing

/// `deploy/kubernetes/`: no Kubernetes runtime runs on these machines, so the manifests are validated
/// against the Kubernetes JSON schemas (kubernetes-validate --strict), parsed (PyYAML) and checked for
/// what an Indexed Job needs, and the container's own arguments are run with the environment
/// Kubernetes gives each pod (`JOB_COMPLETION_INDEX`), against a local API.
@Suite struct KubernetesManifestTests {
    static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../deploy/kubernetes").standardized.path

    /// The documents of a YAML file, as JSON objects.
    static func documents(_ name: String) throws -> [[String: Any]] {
        let script = "import json, sys, yaml; print(json.dumps(list(yaml.safe_load_all(open(sys.argv[1])))))"
        let result = try ProcessRunner.run("python3", ["-c", script, deploy + "/" + name], timeout: 30)
        try #require(result.exitCode == 0, "\(name): \(result.stderrText)")
        return try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]] ?? []
    }

    /// Every manifest under deploy/kubernetes/, as paths relative to it.
    static var manifests: [String] {
        let found = FileManager.default.enumerator(atPath: deploy)?.allObjects as? [String] ?? []
        return found.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
    }

    /// The exit statuses `fetch-gallery COMMAND --help` documents ("Exit status: 0 ...; 1 ...; 2 usage error").
    static func exitStatuses(_ command: String) throws -> [Int: String] {
        let help = try ProcessRunner.run(GalleryCLIKit.binary, [command, "--help"], timeout: 30)
        let text = help.stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let statuses = try #require(text.range(of: "Exit status: ").map { text[$0.upperBound...] }, "no exit statuses in \(command) --help")
        var found: [Int: String] = [:]
        for item in statuses.components(separatedBy: " USAGE:")[0].split(separator: ";") {
            let words = item.split(separator: " ", maxSplits: 1)
            guard words.count == 2, let status = Int(words[0]) else { break }
            found[status] = String(words[1])
        }
        return found
    }

    static func podSpec(_ job: [String: Any]) -> [String: Any] {
        ((job["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any] ?? [:]
    }

    static func container(_ job: [String: Any]) -> [String: Any] {
        (podSpec(job)["containers"] as? [[String: Any]])?.first ?? [:]
    }

    /// The value after `flag` in `args`.
    static func value(_ flag: String, in args: [String]) -> String? {
        args.firstIndex(of: flag).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
    }

    @Test func manifestsDescribeAnIndexedJobOnASharedVolume() throws {
        let claim = try #require(try Self.documents("gallery-volume.yaml").first)
        #expect(claim["kind"] as? String == "PersistentVolumeClaim")
        #expect(((claim["spec"] as? [String: Any])?["accessModes"] as? [String]) == ["ReadWriteMany"])
        let claimName = (claim["metadata"] as? [String: Any])?["name"] as? String

        let shards = try #require(try Self.documents("shards-job.yaml").first)
        let spec = shards["spec"] as? [String: Any] ?? [:]
        #expect(shards["kind"] as? String == "Job" && spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        #expect((spec["parallelism"] as? Int ?? 0) >= 1 && (spec["backoffLimitPerIndex"] as? Int ?? 0) >= 1)
        #expect(Self.podSpec(shards)["restartPolicy"] as? String == "Never")
        let args = Self.container(shards)["args"] as? [String] ?? []
        #expect(args.first == "run" && args.contains("--shard-from-env"))
        #expect(Self.value("--shards", in: args) == String(completions), "--shards must equal completions")

        let merge = try #require(try Self.documents("merge-job.yaml").first)
        let mergeArgs = Self.container(merge)["args"] as? [String] ?? []
        #expect(mergeArgs.first == "merge" && Self.value("--shards", in: mergeArgs) == String(completions))
        // Every job mounts the claim where the command writes or reads the gallery.
        for (job, out) in [(shards, Self.value("--out", in: args)), (merge, mergeArgs.dropFirst().first)] {
            let volumes = Self.podSpec(job)["volumes"] as? [[String: Any]] ?? []
            let mounts = Self.container(job)["volumeMounts"] as? [[String: Any]] ?? []
            let volume = try #require(volumes.first { ($0["persistentVolumeClaim"] as? [String: Any])?["claimName"] as? String == claimName })
            #expect(mounts.contains { $0["name"] as? String == volume["name"] as? String && $0["mountPath"] as? String == out })
        }
    }

    @Test func eachPodsEnvironmentGivesItsShardAndTheMergeJoinsThem() throws {
        let shards = try #require(try Self.documents("shards-job.yaml").first)
        let completions = try #require((shards["spec"] as? [String: Any])?["completions"] as? Int)
        let mergeArgs = Self.container(try #require(try Self.documents("merge-job.yaml").first))["args"] as? [String] ?? []
        var args = Self.container(shards)["args"] as? [String] ?? []
        let mount = try #require(Self.value("--out", in: args))
        // The pod's arguments as written, with the API and the volume replaced by local ones.
        let api = try GalleryCLIKit(pages: completions + 2, perPage: 1)
        let dir = try TempDirectory()
        args[args.firstIndex(of: "--api")! + 1] = api.server.baseURL
        args[args.firstIndex(of: "--pages")! + 1] = String(completions + 2)
        args[args.firstIndex(of: "--out")! + 1] = dir.path
        args += ["--sizes", "64", "--workers", "1"]
        for index in 0..<completions {
            let pod = try ProcessRunner.run(GalleryCLIKit.binary, args, environment: ["JOB_COMPLETION_INDEX": String(index)], timeout: 60)
            #expect(pod.exitCode == 0, "index \(index): \(pod.stderrText)")
            #expect(FileManager.default.fileExists(atPath: dir.path + "/shards/\(index)-of-\(completions).summary.json"))
        }
        let merged = try ProcessRunner.run(GalleryCLIKit.binary, mergeArgs.map { $0 == mount ? dir.path : $0 }, timeout: 60)
        #expect(merged.exitCode == 0, "\(merged.stderrText)")
        #expect(try GalleryCLIKit.manifestPhotos(dir.path).map { $0["id"] as? Int ?? 0 } == api.allIDs)
    }

    /// Strict schema validation for every Kubernetes minor version from 1.31 (the oldest still run widely) to the
    /// newest the validator knows: a field a newer schema relaxed (onPodConditions' `status`) must still be there.
    @Test func everyManifestPassesStrictSchemaValidationForEachVersion() throws {
        let files = Self.manifests
        #expect(files.count >= 6, "\(files)")
        let known = try ProcessRunner.run("python3", ["-c", "import kubernetes_validate.utils as u; print(u.latest_version())"], timeout: 60)
        let newest = known.stdoutText.firstMatch(of: /^1\.(\d+)/).flatMap { Int($0.1) } ?? 0
        // Checked up to a current Kubernetes: backoffLimitPerIndex and podFailurePolicy are GA from 1.33.
        #expect(newest >= 33, "kubernetes-validate knows 1.\(newest) at most: \(known.stdoutText)\(known.stderrText)")
        for minor in 31...max(31, newest) {
            let result = try ProcessRunner.run("python3", ["-m", "kubernetes_validate", "--strict", "-k", "1.\(minor).0"]
                                                   + files.map { Self.deploy + "/" + $0 }, timeout: 120)
            #expect(result.exitCode == 0, "1.\(minor): kubernetes-validate (Scripts/bootstrap installs it): \(result.stdoutText)\(result.stderrText)")
            for file in files {
                #expect(result.stdoutText.contains("\(file) passed"), "1.\(minor), \(file): \(result.stdoutText)")
            }
        }
    }

    @Test func aUsageErrorFailsTheJobAtOnceAndOtherFailuresAreRetried() throws {
        let jobs = try Self.manifests.flatMap { try Self.documents($0) }.filter { $0["kind"] as? String == "Job" }
        #expect(jobs.count >= 4)
        for job in jobs {
            let name = (job["metadata"] as? [String: Any])?["name"] as? String ?? "?"
            let spec = job["spec"] as? [String: Any] ?? [:]
            let container = Self.container(job)
            let command = try #require((container["args"] as? [String])?.first, "\(name): no command")
            let documented = try Self.exitStatuses(command)
            let usage = Set(documented.filter { $0.value.hasPrefix("usage error") }.keys)
            #expect(usage == [2], "\(name): \(command) --help documents \(documented)")
            let rules = (spec["podFailurePolicy"] as? [String: Any])?["rules"] as? [[String: Any]] ?? []
            let failJob = rules.filter { $0["action"] as? String == "FailJob" }.compactMap { $0["onExitCodes"] as? [String: Any] }
            #expect(failJob.allSatisfy { $0["operator"] as? String == "In" && $0["containerName"] as? String == container["name"] as? String },
                    "\(name): \(failJob)")
            let failing = Set(failJob.flatMap { $0["values"] as? [Int] ?? [] })
            // The Job fails at once on exactly the usage errors; every other documented failure is tried again.
            #expect(failing == usage, "\(name): FailJob on \(failing.sorted()), usage errors \(usage.sorted())")
            #expect(failing.isSubset(of: documented.keys), "\(name): \(failing) not among \(documented.keys.sorted())")
            let tries = spec["backoffLimitPerIndex"] as? Int ?? spec["backoffLimit"] as? Int ?? 0
            #expect(tries >= 1 && !documented.keys.filter { $0 != 0 && !failing.contains($0) }.isEmpty, "\(name): nothing left to retry")
            #expect(Self.podSpec(job)["restartPolicy"] as? String == "Never", "\(name): podFailurePolicy needs restartPolicy Never")
        }
        // The README's table says the same of run.
        let readme = try String(contentsOfFile: Self.deploy + "/../../README.md", encoding: .utf8)
        #expect(readme.contains("| 2 | usage error |"))
    }
}
