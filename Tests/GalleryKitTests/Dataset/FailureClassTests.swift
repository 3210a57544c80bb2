import Testing
import GalleryTransfer
@testable import GalleryKit
@testable import GalleryDataset

/// Rows' failures told by class from img2dataset's texts, and the hint when one class is most of them.
@Suite struct FailureClassTests {
    @Test func img2datasetsTextsMapToTheirClasses() {
        let cases: [(RowOutcome.Status, String?, FailureClass?)] = [
            (.success, nil, nil),
            (.failedToDownload, "<urlopen error [Errno -2] Name or service not known>", .dnsNoSuchName),
            (.failedToDownload, "<urlopen error [Errno -3] Temporary failure in name resolution>", .dnsNoAnswer),
            (.failedToDownload, "<urlopen error [Errno -5] No address associated with hostname>", .dnsNoAddress),
            (.failedToDownload, "<urlopen error [Errno 111] Connection refused>", .connectRefused),
            (.failedToDownload, "timed out", .timedOut),
            (.failedToDownload, "<urlopen error [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed>", .tls),
            (.failedToDownload, "HTTP Error 429: Too Many Requests", .rateLimited),
            (.failedToDownload, "HTTP Error 404: Not Found", .http4xx),
            (.failedToDownload, "HTTP Error 503: Service Unavailable", .http5xx),
            (.failedToDownload, "hash mismatch", .hashMismatch),
            (.failedToDownload, "<urlopen error something new>", .other),
            (.failedToResize, "Image decoding error", .notAnImage),
            (.failedToResize, "image too small", .filtered),
            (.failedToResize, "aspect ratio too large", .filtered),
            (.optedOut, "opted_out: X-Robots-Tag noai", .optedOut),
        ]
        for (status, message, expected) in cases {
            #expect(FailureClass(status: status, message: message) == expected, "\(status) \(message ?? "nil")")
        }
    }

    @Test func aClassThatIsHalfOfTwentyFailuresOrMoreDominatesAndHintsWhatToDo() {
        var summary = DatasetSummary()
        summary.failuresByClass = [.timedOut: 12, .http4xx: 7]
        #expect(summary.dominantFailure == nil, "19 failures are too few to say")
        summary.failuresByClass[.http4xx] = 8
        #expect(summary.dominantFailure?.failureClass == .timedOut)
        #expect(summary.failureHint?.hasPrefix("60% of failures are 'timed out': raise --timeout") == true, "\(summary.failureHint ?? "nil")")
        #expect(summary.failureBreakdown == "timed out 12 (60%), HTTP 4xx 8 (40%)")
        // Under half: no class dominates.
        summary.failuresByClass = [.timedOut: 9, .http4xx: 6, .http5xx: 6]
        #expect(summary.dominantFailure == nil)
        // Dead links dominate: nothing an option changes, so no hint.
        summary.failuresByClass = [.http4xx: 30]
        #expect(summary.dominantFailure?.failureClass == .http4xx && summary.failureHint == nil)
        summary.failuresByClass = [.dnsNoAnswer: 30, .timedOut: 2]
        #expect(summary.failureHint?.contains("--dns-server") == true)
    }
}

/// The engine limits a dataset run sets from its options.
@Suite struct DatasetTransferLimitsTests {
    @Test func aBodyThatCannotFinishInTimeEndsWhenThatShows() {
        var options = DatasetOptions(urlList: "list.txt")
        options.timeout = 5
        let config = DatasetRun.transferConfiguration(options, observers: [])
        // A row keeps nothing of a body cut short, so waiting for the deadline only holds its place.
        #expect(config.endsBodiesThatCannotFinish)
        #expect(config.lowSpeedWindow == 5 && config.deadline == options.effectiveDeadline)
        // The gallery's downloads keep what arrived for the next run: read on to the deadline.
        #expect(!TransferConfiguration().endsBodiesThatCannotFinish)
    }
}
