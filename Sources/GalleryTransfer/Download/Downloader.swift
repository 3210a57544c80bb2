import Foundation

extension TransferEngine {
    /// Downloads a URL to a file, resuming a partial left by an earlier attempt or process, verifying the
    /// length and publishing with an atomic rename. On failure no file exists at `destination`; a resumable
    /// partial may remain as `destination.part` (+ `.part.meta`).
    public func download(_ request: DownloadRequest) async throws(TransferError) -> DownloadResult {
        _ = try HTTPRequest(url: request.url).checked()
        let paths = PartPaths(destination: request.destination)
        let durable = request.durable ?? configuration.durable
        let id = nextID()
        let (done, metrics) = try await withRetries(url: request.url, id: id) {
            (number: Int, remaining: Double, lane: Lane, metrics: inout TransferMetrics) async -> AttemptStep<Completed> in
            await attemptDownload(request, paths: paths, durable: durable, id: id, number: number,
                                  remaining: remaining, lane: lane, metrics: &metrics)
        }
        var m = metrics
        m.resumedFrom = done.resumedFrom
        return DownloadResult(url: request.url, path: request.destination, bytes: done.bytes,
                              resumedFrom: done.resumedFrom, metrics: m, unpublished: done.unpublished)
    }

    /// The value of a successful attempt: the file size and how much of it was already on disk.
    struct Completed: Sendable {
        var bytes: Int64
        var resumedFrom: Int64
        var unpublished: UnpublishedDownload?
    }

    /// One attempt: plan from what is on disk, ask (with Range/If-Range when resuming), then conclude.
    private func attemptDownload(_ request: DownloadRequest, paths: PartPaths, durable: Bool, id: TransferID,
                                 number: Int, remaining: Double, lane: Lane,
                                 metrics: inout TransferMetrics) async -> AttemptStep<Completed> {
        let local = number == 1 && request.nothingOnDisk ? nil : paths.loadLocal()
        let plan = ResumePlan.make(local: local, url: request.url)
        var http = HTTPRequest(url: request.url, headers: request.headers, addressPolicy: request.addressPolicy)
        http.awsSignature = request.awsSignature
        if case .resume(let from, let validator) = plan {
            http.headers.set("Range", "bytes=\(from)-")
            http.headers.set("If-Range", validator.headerValue)
        }
        let sink = DownloadSink(paths: paths, url: request.url, plan: plan,
                                memoryLimit: configuration.memoryBufferLimit, durable: durable, sidecarFound: local != nil)
        sink.headCheck = request.headCheck
        var attemptSpec = spec(for: http, remaining: remaining, sniffImage: request.expectImage)
        if let limit = request.maxBodyBytes { attemptSpec.maxBodyBytes = limit }
        let observers = self.observers
        let url = request.url
        let offset = plan.offset
        var progress: (@Sendable (Int64, Int64?) -> Void)?
        if !observers.isEmpty {
            progress = { @Sendable received, expected in
                observers.progress(TransferProgress(id: id, url: url, received: received, expected: expected,
                                                    resumedFrom: offset, attempt: number))
            }
        }
        let outcome = await perform(attemptSpec, sink: sink, lane: lane, onProgress: progress)
        metrics.lastAttempt = outcome.metrics
        metrics.bytesReceived += outcome.bodyBytes
        return conclude(outcome, sink: sink, plan: plan, url: request.url, attempt: number,
                        leaveUnpublished: request.leavesSmallBodyUnpublished)
    }

    /// Decides, after an attempt, between publishing, keeping the partial for a retry, or discarding it.
    private func conclude(_ outcome: AttemptOutcome, sink: DownloadSink, plan: ResumePlan, url: String,
                          attempt: Int, leaveUnpublished: Bool) -> AttemptStep<Completed> {
        if let error = error(for: outcome, url: url, attempt: attempt) {
            switch error.reason {
            case .resumeRejected:
                sink.discard()
                return .again(error)
            case .notAnImage:
                // A page where an image was expected: nothing of it is worth resuming; ask again from scratch.
                if sink.decision != nil { sink.discard() }
            case _ where error.isRetryable && sink.decision != nil:
                // Cut body, stall, connection reset: keep the bytes and continue with Range next time.
                sink.keepForResume()
            case .cancelled where sink.decision != nil:
                // A stopped run (Ctrl-C, requestStop) keeps what it has: the next run resumes from it.
                sink.keepForResume()
            default:
                if sink.decision != nil { sink.discard() }
            }
            return .retry(error, retryAfter: nil)
        }
        let head = outcome.head ?? ResponseHead(status: 0)
        if head.status == 416 {
            let decision = ResumeDecision.decide(plan: plan, status: 416, headers: head.headers)
            if case .alreadyComplete(let length) = decision {
                do throws(TransferError) { try DownloadSink.publish(sink.paths, durable: sink.durable) } catch {
                    var e = error
                    e.url = url
                    return .retry(e, retryAfter: nil)
                }
                return .done(Completed(bytes: length, resumedFrom: length))
            }
            if case .restart(let why) = decision {
                sink.paths.removeAll()
                return .again(TransferError(url: url, reason: .resumeRejected(why), status: 416, attempts: attempt))
            }
        }
        guard (200..<300).contains(head.status) else {
            let reason = TransferError.statusReason(head.status, body: outcome.errorBody)
            let e = TransferError(url: url, reason: reason, status: head.status, attempts: attempt)
            return .retry(e, retryAfter: head.headers["Retry-After"])
        }
        do throws(TransferError) {
            let (bytes, unpublished) = try sink.complete(leaveUnpublished: leaveUnpublished)
            return .done(Completed(bytes: bytes, resumedFrom: sink.progressBase, unpublished: unpublished))
        } catch {
            var e = error
            e.status = head.status
            e.attempts = attempt
            if case .resumeRejected = e.reason { return .again(e) }
            return .retry(e, retryAfter: nil)
        }
    }
}
