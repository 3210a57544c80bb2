import Foundation
import Testing

/// The test process that TestRunnerTests runs through Scripts/test-one on purpose: it crashes, hangs
/// (or just passes) only when FETCH_GALLERY_CRASH_PROBE says so, and is skipped in every normal run.
@Suite struct CrashProbe {
    static let mode = ProcessInfo.processInfo.environment["FETCH_GALLERY_CRASH_PROBE"]

    @Test(.enabled(if: mode == "crash", "runs only when TestRunnerTests asks for a crashing test process"))
    func crashes() {
        let empty: [Int] = []
        print("crash probe: indexing an empty array")
        _ = empty[Int(getpid()) % 2 + 1]  // a real trap in the runtime, not a test failure
    }

    @Test(.enabled(if: mode == "hang", "runs only when TestRunnerTests asks for a hanging test process"))
    func hangs() {
        print("crash probe: sleeping past the time limit")
        sleep(3_600)
    }

    @Test(.enabled(if: mode == "pass", "runs only when TestRunnerTests counts the tests a run ran"))
    func passes() {
        #expect(Self.mode == "pass")
    }
}
