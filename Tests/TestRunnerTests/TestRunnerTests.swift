import Foundation
import GalleryTestSupport
import Testing

/// Scripts/test-one is how Scripts/test (and so CI) runs each test target. A test process that
/// crashes must make the run fail within a minute, with its crash report, never hang; one that
/// hangs must be stopped at the time limit. Both are run here for real, on CrashProbe.
@Suite(.serialized) struct TestRunnerTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Runs CrashProbe's `test` in its own `swift test` process through Scripts/test-one.
    /// `--ignore-lock`: the `swift test` running this test holds the build folder's lock.
    static func probe(_ mode: String, test: String, environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(
            root + "/Scripts/test-one",
            ["--ignore-lock", "--filter", "^TestRunnerTests\\.CrashProbe/\(test)"],
            environment: environment.merging(["FETCH_GALLERY_CRASH_PROBE": mode]) { $1 },
            currentDirectory: root, timeout: 180)
    }

    @Test func crashingTestFailsTheRunWithinAMinuteWithItsCrashReport() throws {
        let result = try Self.probe("crash", test: "crashes()")
        let output = result.stdoutText + result.stderrText
        #expect(!result.timedOut, "still running after 180 s:\n\(output)")
        #expect(result.exitCode != 0, "a crashed test process must fail the run:\n\(output)")
        #expect(result.duration < 60, "took \(result.duration) s")
        #expect(output.contains("crash probe: indexing an empty array"), "the probe did not run:\n\(output)")
        // The backtracer's report: the crash, the crashed thread and our frame in it.
        #expect(output.contains("Index out of range"), "no runtime message:\n\(output)")
        #expect(output.contains("crashed:"), "no crash report:\n\(output)")
        #expect(output.contains("CrashProbe"), "the report does not name the crashing test:\n\(output)")
    }

    /// The failure once seen: a backtracer that never finishes kept the crashed run open for over 20
    /// minutes. One that hangs for good (a stand-in given as the runtime's `swift-backtrace`) must be
    /// stopped by Scripts/test-one's watchdog and the crash still fail the run within a minute.
    @Test func hangingBacktracerIsStoppedAndTheCrashStillFails() throws {
        let folder = try TempDirectory(prefix: "backtracer")
        let standIn = try folder.write(Array("#!/bin/sh\necho 'stand-in backtracer: hanging' >&2\nwhile :; do sleep 1; done\n".utf8),
                                        to: "swift-backtrace")
        chmod(standIn, 0o755)
        let result = try Self.probe("crash", test: "crashes()", environment: [
            "FETCH_GALLERY_BACKTRACE": "enable=yes,interactive=no,swift-backtrace=\(standIn)",
            "FETCH_GALLERY_BACKTRACE_LIMIT": "10",
        ])
        let output = result.stdoutText + result.stderrText
        #expect(!result.timedOut, "still running after 180 s:\n\(output)")
        #expect(output.contains("stand-in backtracer: hanging"), "the stand-in was not used:\n\(output)")
        #expect(output.contains("ran past 10s and was stopped"), "\(output)")
        #expect(result.exitCode != 0 && result.exitCode != 124, "exit \(result.status):\n\(output)")
        #expect(result.duration < 60, "took \(result.duration) s")
    }

    @Test func hangingTestIsStoppedAtTheTimeLimit() throws {
        let result = try Self.probe("hang", test: "hangs()", environment: ["FETCH_GALLERY_TEST_TIMEOUT": "5s"])
        let output = result.stdoutText + result.stderrText
        #expect(!result.timedOut, "still running after 180 s:\n\(output)")
        #expect(result.exitCode == 124, "exit \(result.status):\n\(output)")
        #expect(result.duration < 40, "took \(result.duration) s")
        #expect(output.contains("ran past 5s and was stopped"), "\(output)")
        // No process of the run outlives it: the hanging test process is in a process group of its own.
        let left = Self.livingProcesses(matching: "CrashProbe/hangs()")
        #expect(left.isEmpty, "left running: \(left)\n\(output)")
    }

    /// `swift test` starts the test process in a process group of its own, so one could outlive a run
    /// stopped at its time limit (one was found still hanging after a sanitizer run). A stand-in
    /// `swift` that does just that (its test process in a new session, itself ending on SIGTERM):
    /// Scripts/test-one must stop the left-over process too, and say so. Two timings: the process
    /// starts with the run, or only as the run is stopped (as in a CI run where `swift test` was slow
    /// to start the test process: a watchdog that sampled the run once a second never saw it).
    @Test(arguments: ["at the start", "on SIGTERM"])
    func aTestProcessLeftByAStoppedRunIsStopped(started: String) throws {
        let folder = try TempDirectory(prefix: "stand-in-swift")
        let marker = "left-over-test-process-\(UUID().uuidString)"
        let onStart = started == "at the start"
        let script = """
            #!/bin/bash
            leave() { setsid bash -c 'exec -a \(marker) sleep 600' & }
            \(onStart ? "leave" : "")
            trap '\(onStart ? "" : "leave;") exit 143' TERM
            while :; do sleep 0.2; done

            """
        let standIn = try folder.write(Array(script.utf8), to: "swift")
        chmod(standIn, 0o755)
        let result = try ProcessRunner.run(
            Self.root + "/Scripts/test-one", ["--filter", "nothing"],
            environment: ["PATH": folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                          "FETCH_GALLERY_TEST_TIMEOUT": "3s"],
            currentDirectory: Self.root, timeout: 60)
        let output = result.stdoutText + result.stderrText
        #expect(result.exitCode == 124, "exit \(result.status):\n\(output)")
        #expect(output.contains("stopped processes left by the run"), "\(output)")
        // Its look through /proc says nothing of the files it cannot read (kernel threads, others' processes).
        #expect(!output.contains("/proc/"), "\(output)")
        let left = Self.livingProcesses(matching: marker, program: nil)
        for pid in left { kill(pid, SIGKILL) }
        #expect(left.isEmpty, "left running: \(left)\n\(output)")
    }

    /// Scripts/test runs each target with a filter: one that matches nothing (a suite renamed) must
    /// fail the run, and every run says how many tests it ran.
    @Test func aRunThatRanNoTestFailsAndEveryRunCountsItsTests() throws {
        let run = { (filter: String, mode: String, extra: [String: String]) throws -> ProcessResult in
            try ProcessRunner.run(Self.root + "/Scripts/test-one", ["--ignore-lock", "--filter", filter],
                                  environment: ["FETCH_GALLERY_ALLOW_ALL_SKIPPED": "0", "FETCH_GALLERY_CRASH_PROBE": mode].merging(extra) { $1 },
                                  currentDirectory: Self.root, timeout: 180)
        }
        let nothing = try run("^TestRunnerTests\\.NoSuchSuite/", "none", [:])
        #expect(nothing.exitCode == 1, "\(nothing.stdoutText)\(nothing.stderrText)")
        #expect(nothing.stdoutText.contains("test-one: ran 0 tests, skipped 0"), "\(nothing.stdoutText)")
        #expect(nothing.stderrText.contains("matches no test"), "\(nothing.stderrText)")

        let one = try run("^TestRunnerTests\\.CrashProbe/", "pass", [:])
        #expect(one.exitCode == 0, "\(one.stdoutText)\(one.stderrText)")
        #expect(one.stdoutText.contains("test-one: ran 1 tests, skipped 2"), "\(one.stdoutText)")

        // Every test skipped: a failure, unless the caller says skipping all is expected.
        let skipped = try run("^TestRunnerTests\\.CrashProbe/", "none", [:])
        #expect(skipped.exitCode == 1 && skipped.stderrText.contains("skipped all 3"), "\(skipped.stdoutText)\(skipped.stderrText)")
        let allowed = try run("^TestRunnerTests\\.CrashProbe/", "none", ["FETCH_GALLERY_ALLOW_ALL_SKIPPED": "1"])
        #expect(allowed.exitCode == 0 && allowed.stdoutText.contains("ran 0 tests, skipped 3"), "\(allowed.stdoutText)\(allowed.stderrText)")
    }

    /// Scripts/test runs Scripts/check-concurrency-rule before it builds: the tree passes it, and a
    /// `Mutex` or a bare continuation outside GallerySync fails it, naming the line.
    @Test func theConcurrencyRuleHoldsAndFailsOnAMutexOrABareContinuation() throws {
        let script = Self.root + "/Scripts/check-concurrency-rule"
        let tree = try ProcessRunner.run(script, [], currentDirectory: Self.root, timeout: 60)
        #expect(tree.exitCode == 0, "\(tree.stdoutText)\(tree.stderrText)")
        let folder = try TempDirectory(prefix: "concurrency-rule")
        // The forbidden words in pieces, so this file passes the rule itself.
        let (mutex, checked) = ("Mu" + "tex", "Checked" + "Continuation")
        // GallerySync itself may use both (Locked and the hand-off are built on them).
        try folder.write(Array("let lock = \(mutex)<Int>(0)\n".utf8), to: "Sources/GallerySync/Inside.swift")
        try folder.write(Array("let lock = Locked(0)\n".utf8), to: "Sources/GalleryKit/Fine.swift")
        let clean = try ProcessRunner.run(script, [folder.path], currentDirectory: Self.root, timeout: 60)
        #expect(clean.exitCode == 0, "\(clean.stdoutText)\(clean.stderrText)")
        for (name, line) in [("Lock.swift", "    private let state = \(mutex)(State())"),
                             ("Wait.swift", "    await with\(checked) { c in c.resume() }"),
                             ("Throwing.swift", "    try await withUnsafeThrowing" + "Continuation { c in c.resume() }"),
                             ("Kept.swift", "    var waiters: [\(checked)<Void, Never>] = []")] {
            let path = try folder.write(Array((line + "\n").utf8), to: "Tests/SomeTests/" + name)
            let result = try ProcessRunner.run(script, [folder.path], currentDirectory: Self.root, timeout: 60)
            #expect(result.exitCode == 1, "\(name): \(result.stdoutText)\(result.stderrText)")
            #expect(result.stderrText.contains("Tests/SomeTests/\(name):1:"), "\(result.stderrText)")
            try FileManager.default.removeItem(atPath: path)
        }
    }

    /// Pids of processes whose command line contains `text` and `program` and that have not exited
    /// (zombies left out).
    static func livingProcesses(matching text: String, program: String? = "xctest") -> [Int32] {
        let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { Int32($0) } ?? []
        return pids.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let state = stat.split(separator: ")").last?.split(separator: " ").first,
                  let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let line = String(decoding: command.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return line.contains(text) && (program.map(line.contains) ?? true) && state != "Z"
        }
    }
}
