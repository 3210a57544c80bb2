import Foundation
import GalleryTestSupport
import Testing

/// `deploy/htcondor/shards.sub`: no HTCondor runs on these machines, so the submit file is read as
/// condor_submit would (its macros, `$(Process)` numbered from 0 for each process `queue` makes) and
/// each process's arguments are run against a local API, then the merge.
@Suite struct HTCondorSubmitTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../deploy/htcondor/shards.sub").standardized.path

    /// The submit file's `key = value` commands (keys lower-cased) and its queue statement.
    static func commands() throws -> (values: [String: String], queue: String) {
        var values: [String: String] = [:]
        var queue = ""
        for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { continue }
            if text.lowercased().hasPrefix("queue") { queue = text; continue }
            let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { values[parts[0].lowercased()] = parts[1] }
        }
        return (values, queue)
    }

    @Test func eachProcessRunsItsShardAndTheMergeJoinsThem() throws {
        let (values, queue) = try Self.commands()
        #expect(queue == "queue $(Shards)" && Int(values["shards"] ?? "") != nil, "\(queue) \(values)")
        #expect(values["executable"].map { URL(fileURLWithPath: $0).lastPathComponent } == "fetch-gallery")
        // Retried, except a usage error (the status --help documents as one).
        let usage = try KubernetesManifestTests.exitStatuses("run").filter { $0.value.hasPrefix("usage error") }.keys
        #expect(Int(values["max_retries"] ?? "") ?? 0 >= 1 && values["retry_until"].flatMap { Int($0) }.map { usage.contains($0) } == true,
                "\(values)")
        // As `condor_submit -append 'Shards = 3'` would: 3 processes, $(Process) 0, 1, 2.
        let shards = 3
        let api = try GalleryCLIKit(pages: shards + 2, perPage: 1)
        let dir = try TempDirectory()
        let quoted = try #require(values["arguments"], "no arguments")
        #expect(quoted.hasPrefix("\"") && quoted.hasSuffix("\""), "the new (quoted) arguments syntax: \(quoted)")
        var template = quoted.trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: " ").map(String.init)
        template[template.firstIndex(of: "--api")! + 1] = api.server.baseURL
        template[template.firstIndex(of: "--pages")! + 1] = String(shards + 2)
        template[template.firstIndex(of: "--out")! + 1] = dir.path
        template += ["--sizes", "64", "--workers", "1"]
        for process in 0..<shards {
            let args = template.map { $0.replacingOccurrences(of: "$(Process)", with: String(process))
                .replacingOccurrences(of: "$(Shards)", with: String(shards)) }
            let run = try ProcessRunner.run(GalleryCLIKit.binary, args, timeout: 60)
            #expect(run.exitCode == 0, "process \(process): \(args) \(run.stderrText)")
        }
        let merged = try ProcessRunner.run(GalleryCLIKit.binary, ["merge", dir.path, "--shards", String(shards)], timeout: 60)
        #expect(merged.exitCode == 0, "\(merged.stderrText)")
        #expect(try GalleryCLIKit.manifestPhotos(dir.path).map { $0["id"] as? Int ?? 0 } == api.allIDs)
    }
}
