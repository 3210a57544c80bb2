import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery
@testable import GalleryRunner

/// The commands take their exit status from GalleryKit: the statuses are the README's, and each
/// summary ends with the one its table gives.
@Suite struct GalleryOutcomeTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../README.md").standardized.path

    /// Every outcome is a row of the README's exit status table, and every row an outcome.
    @Test func theOutcomesAreTheReadmesExitStatuses() throws {
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        let table = try #require(text.components(separatedBy: "### Exit status").dropFirst().first)
        let rows = table.split(separator: "\n").prefix { !$0.hasPrefix("#") }
            .compactMap { line -> Int32? in
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                return cells.first.flatMap { Int32($0) }
            }
        #expect(Set(rows) == Set(GalleryOutcome.allCases.map(\.exitStatus)), "README: \(rows)")
        #expect(GalleryOutcome.done.exitStatus == 0 && GalleryOutcome.failures.exitStatus == 1 && GalleryOutcome.usage.exitStatus == 2
                && GalleryOutcome.unreadable.exitStatus == 3 && GalleryOutcome.interrupted.exitStatus == 130)
    }

    /// `run`: an interruption first, then a source that stopped or could not be read, then failures.
    @Test func aRunEndsAsItsSummarySays() {
        var summary = GalleryRunSummary()
        summary.photosOK = 3
        #expect(summary.runFailure == nil)
        summary.pagesFailed = 1
        #expect(summary.runFailure == GalleryFailure(.failures))
        summary.sourceError = "page 1: HTTP 500"
        #expect(summary.runFailure == GalleryFailure(.failures), "photos were made: the source was read")
        summary.photosOK = 0
        #expect(summary.runFailure == GalleryFailure(.unreadable, "the source could not be read: page 1: HTTP 500"))
        summary.sourceStopped = "rate limit\u{1B}[2J spent"
        #expect(summary.runFailure == GalleryFailure(.unreadable, "the source stopped early: rate limit\u{FFFD}[2J spent"))
        summary.interrupted = true
        #expect(summary.runFailure == GalleryFailure(.interrupted))
    }

    /// `plan`: no plan is written when a listing page failed, and the message says which is kept.
    @Test func aPlanEndsAsItsSummarySays() {
        var summary = GalleryRunSummary()
        #expect(summary.planFailure(planLocation: "g/plan.jsonl") == nil)
        summary.pagesFailed = 2
        #expect(summary.planFailure(planLocation: "g/plan.jsonl")
                == GalleryFailure(.failures, "2 listing pages failed; no plan written (g/plan.jsonl is unchanged): run it again"))
        summary.sourceError = "unreadable"
        #expect(summary.planFailure(planLocation: "g/plan.jsonl")?.outcome == .unreadable)
        summary.interrupted = true
        #expect(summary.planFailure(planLocation: "g/plan.jsonl")?.outcome == .interrupted)
    }

    /// `merge`: a shard missing, unfinished or without its source fails it, as do failed photos; the
    /// folder or `--shards` being wrong is a usage error.
    @Test func aMergeEndsAsItsReportSays() throws {
        var report = MergeReport(shards: 2)
        #expect(report.failure == nil)
        report.photosFailed = 1
        #expect(report.failure?.outcome == .failures)
        report = MergeReport(shards: 2, missing: [1])
        #expect(report.failure?.outcome == .failures)
        report = MergeReport(shards: 2, sourceErrors: [0: "x"])
        #expect(report.failure?.outcome == .failures)
        #expect(ShardError.noParts(folder: "g").outcome == .usage)
        #expect(ShardError.mixedCounts(folder: "g", counts: [2, 3]).outcome == .usage)
        #expect(ShardError.unreadablePart(path: "p", reason: "r").outcome == .failures)
    }
}
