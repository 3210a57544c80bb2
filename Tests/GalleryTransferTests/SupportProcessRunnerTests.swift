import Foundation
import GalleryTestSupport
import Testing

/// ProcessRunner: capture, environment, timeouts and signals sent at a chosen moment.
@Suite struct SupportProcessRunnerTests {
    @Test func capturesOutputAndExitCode() throws {
        let result = try ProcessRunner.run("sh", ["-c", "echo out; echo err >&2; exit 3"])
        #expect(result.exitCode == 3)
        #expect(result.signal == nil)
        #expect(result.stdoutText == "out\n")
        #expect(result.stderrText == "err\n")
        #expect(!result.timedOut)
    }

    @Test func passesEnvironmentAndDirectory() throws {
        let folder = try TempDirectory()
        let result = try ProcessRunner.run(
            "sh", ["-c", "echo $SELFTEST_VALUE; pwd"], environment: ["SELFTEST_VALUE": "forty two"],
            currentDirectory: folder.path)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first == "forty two")
        #expect(lines.last.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
            == URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path)
    }

    @Test func timeoutKills() throws {
        let result = try ProcessRunner.run("sleep", ["30"], timeout: 0.5)
        #expect(result.timedOut)
        #expect(result.signal == SIGKILL)
        #expect(result.duration < 5)
    }

    @Test func signalSentWhenTheOutputSaysSoReachesAHandler() throws {
        let script = "trap 'echo caught; exit 7' INT; echo ready; while :; do sleep 0.05; done"
        let runner = try ProcessRunner("sh", ["-c", script]) { output, runner in
            if case .stdout(let data) = output, String(decoding: data, as: UTF8.self).contains("ready") {
                runner.send(SIGINT)
            }
        }
        let result = runner.wait(timeout: 10)
        #expect(!result.timedOut)
        #expect(result.exitCode == 7)
        #expect(result.stdoutText.contains("caught"))
    }

    @Test func sigkillEndsAProcessMidway() throws {
        let runner = try ProcessRunner("sh", ["-c", "echo started; sleep 30"])
        try waitUntil { runner.stdoutText.contains("started") }
        runner.send(SIGKILL)
        let result = runner.wait(timeout: 10)
        #expect(result.signal == SIGKILL)
        #expect(result.duration < 5)
        runner.send(SIGKILL)  // after exit: a no-op, never a signal to a reused pid
    }

    @Test func findsTheBuiltCLI() throws {
        let binary = try BuiltProduct.path("fetch-gallery")
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        let result = try ProcessRunner.run(binary, ["--help"], timeout: 30)
        #expect(result.exitCode == 0)
        #expect(result.stdoutText.lowercased().contains("usage"))
    }

    @Test func missingExecutableIsATypedError() {
        #expect(throws: TestSupportError.self) { try ProcessRunner.run("no-such-binary-fetch-gallery") }
    }
}
