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
        for option in ["--jobs", "--per-host", "--deadline", "--durable", "--ca-certificates", "--progress", "--quiet"] {
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
}
