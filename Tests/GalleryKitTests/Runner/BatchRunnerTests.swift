import Foundation
import GallerySync
import Testing
@testable import GalleryKit
@testable import GalleryRunner

/// The one batch runner both runs go through: items on the pool's threads, a window, the stop.
@Suite struct BatchRunnerTests {
    /// The run's task and every item's task run on the pool's threads (a photo's or a row's steps after its
    /// download then run there with no hop through Swift's pool): both products' runs go through here.
    @Test func theRunAndItsItemsRunOnThePoolsThreads() async {
        let runner = BatchRunner(threads: 2)
        let seen = Locked<[String]>([])
        let own = await runner.run { () -> String in
            await runner.forEach(window: 4, Array(0..<20)) { _ in
                seen.withLock { $0.append(NamedThread.currentName) }
            }
            return NamedThread.currentName
        }
        // Items started from a task that does not prefer the pool run there too.
        await runner.forEach(window: 4, Array(0..<20)) { _ in
            seen.withLock { $0.append(NamedThread.currentName) }
        }
        let names = seen.withLock { $0 }
        #expect(own.hasPrefix("fg-work-"), "\(own)")
        #expect(names.count == 40)
        #expect(names.allSatisfy { $0.hasPrefix("fg-work-") }, "\(Set(names))")
    }

    /// At most `window` items at once, every item once.
    @Test func itemsRunWithinTheirWindow() async {
        let runner = BatchRunner(threads: 2)
        let state = Locked((running: 0, peak: 0, done: [Int]()))
        await runner.run {
            await runner.forEach(window: 3, Array(0..<30)) { item in
                state.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) }
                try? await Task.sleep(nanoseconds: 2_000_000)
                state.withLock { $0.running -= 1; $0.done.append(item) }
            }
        }
        let (_, peak, done) = state.withLock { $0 }
        #expect(peak <= 3 && peak >= 2, "peak \(peak)")
        #expect(done.sorted() == Array(0..<30))
    }

    /// An item that gives its place back early lets the next one start while it ends, but at most
    /// `openItems(window:)` items are started and not ended (each holds its writer and files open): the next
    /// waits for one to end.
    @Test func itemsGivingTheirPlaceBackEarlyStayWithinTheOpenBound() async {
        let runner = BatchRunner(threads: 2)
        let state = Locked((open: 0, peak: 0, done: 0))
        await runner.run {
            var items = Array(0..<10).makeIterator()
            await runner.forEach(window: 1, next: { () throws(Never) in items.next() }, releasingEarly: { _, started in
                state.withLock { $0.open += 1; $0.peak = max($0.peak, $0.open) }
                await started()
                try? await Task.sleep(nanoseconds: 20_000_000)  // a slow tail: its last rows finishing
                state.withLock { $0.open -= 1; $0.done += 1 }
            })
        }
        let (_, peak, done) = state.withLock { $0 }
        #expect(BatchRunner.openItems(window: 1) == 2)
        #expect(peak == 2, "peak \(peak): the early release lets a second item start, the bound no third")
        #expect(done == 10)
    }

    /// A stop takes no new item, cancels those in flight (a download under way ends as cancelled), lets the
    /// run return, and keeps the signal for the exit status.
    @Test func aStopTakesNoNewItemAndCancelsThoseInFlight() async {
        let runner = BatchRunner(threads: 2)
        let started = Locked<[Int]>([])
        let cancelled = Locked(0)
        let taken = Locked(0)
        var next = 0
        await runner.run {
            await runner.forEach(window: 4, next: { () throws(Never) -> Int? in
                taken.withLock { $0 += 1 }
                defer { next += 1 }
                return next < 1_000 ? next : nil
            }) { item in
                let count = started.withLock { $0.append(item); return $0.count }
                if count == 3 { runner.requestStop(signal: SIGTERM) }
                // Waits "forever" like a stalled download; only cancellation ends it.
                try? await Task.sleep(nanoseconds: 60_000_000_000)
                if Task.isCancelled { cancelled.withLock { $0 += 1 } }
            }
        }
        let count = started.withLock { $0.count }
        #expect(count >= 3 && count <= 4, "\(count) items started (window 4)")
        #expect(cancelled.withLock { $0 } == count, "every item in flight was cancelled")
        #expect(taken.withLock { $0 } <= count + 1)
        #expect(runner.isStopping)
        #expect(runner.stopSignal == SIGTERM)
        #expect(GalleryOutcome.stopped(by: runner.stopSignal) == .terminated)
        #expect(GalleryOutcome.stopped(by: SIGINT) == .interrupted)
    }

    /// An error reading the next item ends the loop after the items already started, and is thrown.
    @Test func anErrorFromTheListEndsTheLoopAfterTheStartedItems() async {
        struct ListError: Error {}
        let runner = BatchRunner(threads: 1)
        let done = Locked<[Int]>([])
        var next = 0
        await #expect(throws: ListError.self) {
            try await runner.forEach(window: 2, next: { () throws(ListError) -> Int? in
                defer { next += 1 }
                if next == 5 { throw ListError() }
                return next
            }) { item in
                try? await Task.sleep(nanoseconds: 5_000_000)
                done.withLock { $0.append(item) }
            }
        }
        #expect(done.withLock { $0 }.sorted() == [0, 1, 2, 3, 4])
    }

    /// A stop asked before the run starts: the run returns at once, having started nothing.
    @Test func aStopBeforeTheRunStartsNothing() async {
        let runner = BatchRunner(threads: 1)
        runner.requestStop()
        let started = Locked(0)
        await runner.run {
            await runner.forEach(window: 2, Array(0..<10)) { _ in started.withLock { $0 += 1 } }
        }
        #expect(started.withLock { $0 } == 0)
        #expect(runner.stopSignal == BatchRunner.stopWithoutSignal)
    }
}
