import Foundation
import GalleryTestSupport
import Testing

/// The options `run` and `download` share (TransferOptions, OutputOptions): both commands take them
/// and refuse the same bad values with a usage error naming the option, before any work starts.
@Suite struct TransferOptionsTests {
    static let commands: [[String]] = [
        ["run", "--api", "http://127.0.0.1:1", "--out"],
        ["download", "--urls", "/dev/null", "--out"],
    ]
    static let bad: [(arguments: [String], names: String)] = [
        (["--jobs", "0"], "--jobs"),
        (["--per-host", "0"], "--per-host"),
        (["--deadline", "0"], "--deadline"),
        (["--deadline", "-1"], "--deadline"),
        (["--ca-certificates", "/nonexistent/ca.pem"], "/nonexistent/ca.pem"),
        (["--progress", "loud"], "--progress"),
        (["--rate", "-1"], "--rate"),
        (["--user-agent", ""], "--user-agent"),
    ]

    @Test("a bad shared option is a usage error in both commands", arguments: commands)
    func refused(command: [String]) throws {
        for (arguments, names) in Self.bad {
            let dir = try TempDirectory()
            let result = try ProcessRunner.run(GalleryCLIKit.binary, command + [dir.file("out")] + arguments, timeout: 30)
            #expect(result.exitCode == 2, "\(arguments): \(result.exitCode as Any) \(result.stderrText)")
            #expect(result.stderrText.contains(names), "\(arguments): \(result.stderrText)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("out")), "\(arguments) created the output folder")
        }
    }

    @Test("both commands list the shared options in --help", arguments: ["run", "download"])
    func help(command: String) throws {
        let result = try ProcessRunner.run(GalleryCLIKit.binary, [command, "--help"], timeout: 30)
        #expect(result.exitCode == 0)
        for option in ["--jobs", "--per-host", "--deadline", "--durable", "--ca-certificates", "--progress", "--quiet",
                       "--rate", "--user-agent"] {
            #expect(result.stdoutText.contains(option), "\(command) --help lacks \(option)")
        }
    }

    @Test func downloadTakesTheShortQuiet() throws {
        let dir = try TempDirectory()
        let list = try dir.write([], to: "urls.txt")
        let result = try ProcessRunner.run(GalleryCLIKit.binary, ["download", "--urls", list, "--out", dir.file("o"), "-q"], timeout: 30)
        #expect(result.exitCode == 0, "\(result.stderrText)")
        #expect(result.stderrText.isEmpty, "\(result.stderrText)")
    }

    /// `--rate 5` spaces the downloads' starts 0.2 s apart on one host (loopback included, since asked);
    /// without it, loopback is not limited; `--user-agent` is what the server sees.
    @Test func rateAndUserAgentReachTheServer() async throws {
        let server = try FaultServer()
        let photo = DownloadCLI.bytes(4_000, seed: 5)
        let paths = (0..<6).map { "/r\($0).jpg" }
        for p in paths { server.route(p) { _, _ in .file(photo, contentType: "image/jpeg") } }
        let dir = try TempDirectory()
        let list = try dir.write(Array(paths.map { server.url($0) }.joined(separator: "\n").utf8), to: "urls.txt")
        let launched = Date()
        let paced = try await DownloadCLI.run(["download", "--urls", list, "--out", dir.file("a"), "-q", "--rate", "5",
                                               "--user-agent", "gallery-bot/2 (+mailto:me@example.org)"])
        #expect(paced.exitCode == 0, "\(paced.stderrText)")
        // Slots are 0.2 s apart from the first: the i-th arrival comes at least i × 0.2 s after the launch
        // (a loaded machine can only delay a request past its slot, never send it early).
        let offsets = server.allRequests.map { $0.arrival.timeIntervalSince(launched) }.sorted()
        #expect(offsets.count == 6)
        for (i, offset) in offsets.enumerated() {
            #expect(offset >= Double(i) * 0.2 - 0.005, "request \(i) at \(offset) s: \(offsets)")
        }
        #expect(server.allRequests.allSatisfy { $0.headers["User-Agent"] == "gallery-bot/2 (+mailto:me@example.org)" })

        let before = server.allRequests.count
        let free = try await DownloadCLI.run(["download", "--urls", list, "--out", dir.file("b"), "-q"])
        #expect(free.exitCode == 0, "\(free.stderrText)")
        let fresh = server.allRequests.dropFirst(before).map(\.arrival).sorted()
        #expect(fresh.count == 6 && fresh.last!.timeIntervalSince(fresh.first!) < 0.5, "loopback was rate limited")
        #expect(server.allRequests.last?.headers["User-Agent"]?.hasPrefix("fetch-gallery/0.1 (+https://") == true)
    }
}
