import Foundation
import GallerySystem

/// The end of one item of a batch.
public struct BatchOutcome: Sendable {
    /// The download asked for.
    public var request: DownloadRequest
    /// The download, or nil when the destination already existed and was skipped.
    public var result: Result<DownloadResult, TransferError>?

    /// Whether the file was already there and nothing was fetched.
    public var isSkipped: Bool { result == nil }
    /// The error, when the download failed.
    public var error: TransferError? {
        if case .failure(let e)? = result { return e }
        return nil
    }
    /// The site opted the file out of AI use (``OptOutGate``): not fetched, and not a failure.
    public var optedOut: String? { error?.optOut }
}

extension TransferEngine {
    /// Downloads many files with at most `window` tasks in flight (a sliding window, so memory does not grow
    /// with the list; the engine's admission queue applies the real total and per-host limits).
    /// A destination that already exists is complete (files are only ever published by rename once verified)
    /// and is skipped. `onFinish` is called once per item, from any task. With `optOut`, a file its site
    /// opts out of AI use is not fetched (its origin's files are read before, its headers before its body).
    public func downloadAll(_ requests: [DownloadRequest], window: Int? = nil, optOut: OptOutGate? = nil,
                            onFinish: @escaping @Sendable (BatchOutcome) -> Void) async {
        let width = max(1, window ?? configuration.maxConcurrentTransfers * 4)
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func addNext() {
                guard next < requests.count else { return }
                var request = requests[next]
                next += 1
                group.addTask {
                    if PartFileCheck.isComplete(request.destination) {
                        onFinish(BatchOutcome(request: request, result: nil))
                        return
                    }
                    if let optOut {
                        switch await optOut.decide(request.url) {
                        case .refused(let why):
                            return onFinish(BatchOutcome(request: request, result: .failure(
                                TransferError(url: request.url, reason: .refusedByHeaders(why)))))
                        case .proceed(let check): request.headCheck = check
                        }
                    }
                    do throws(TransferError) {
                        onFinish(BatchOutcome(request: request, result: .success(try await self.download(request))))
                    } catch {
                        onFinish(BatchOutcome(request: request, result: .failure(error)))
                    }
                }
            }
            for _ in 0..<width { addNext() }
            while await group.next() != nil { addNext() }
        }
    }
}

/// Whether a destination is already a published (hence complete) regular file.
enum PartFileCheck {
    static func isComplete(_ destination: String) -> Bool {
        Syscall.regularFileStatus(destination) != nil
    }
}
