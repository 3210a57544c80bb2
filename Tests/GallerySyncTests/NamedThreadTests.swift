import Foundation
import GallerySync
import Testing

/// Threads started through `NamedThread` carry their name where `top -H`, `perf` and `/proc` look for it,
/// and the parallel map returns every result in order.
@Suite struct NamedThreadTests {
    /// The names of this process's threads, as the kernel holds them.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) }
    }

    @Test func aStartedThreadIsNamedInProc() async {
        let name = "fg-test-\(Int.random(in: 100...999))"
        let (seen, done) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let own = Locked("")
        NamedThread.start(name) {
            own.withLock { $0 = NamedThread.currentName }
            seen.signal()
            done.wait()
        }
        seen.wait()
        #expect(own.withLock { $0 } == name)
        #expect(Self.threadNames().contains(name), "\(Self.threadNames())")
        done.signal()
    }

    /// On a thread of its own (not one of Swift's shared ones): renamed, then a name too long is refused.
    @Test func aThreadCanRenameItselfWithinTheLimit() {
        let results = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            results.withLock { $0.append(NamedThread.setCurrentName("fg-renamed") ? "set" : "refused") }
            results.withLock { $0.append(NamedThread.currentName) }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(results.withLock { $0 } == ["set", "fg-renamed"])
        #expect(NamedThread.maxNameLength == 15)
    }

    @Test func dispatchParallelReturnsEveryResultInOrder() {
        let values = DispatchParallel().map(10_000) { $0 * 3 }
        #expect(values == (0..<10_000).map { $0 * 3 })
        #expect(DispatchParallel().map(0) { $0 }.isEmpty)
        #expect(DispatchParallel().map(1) { $0 + 7 } == [7])
    }
}
