import Foundation
import GallerySystem

/// Receives a download's body on the loop thread. Small bodies stay in memory and are written once at the
/// end (no sidecar, few syscalls); a body that outgrows `memoryLimit` spills to `NAME.part` with a sidecar
/// so it can be resumed, even by a later process.
final class DownloadSink: BodySink {
    let paths: PartPaths
    let url: String
    let plan: ResumePlan
    let memoryLimit: Int
    let durable: Bool

    private(set) var decision: ResumeDecision?
    private var buffer: [UInt8] = []
    private var file: PartFile?
    /// Bytes of the body we hold, counting a resumed prefix on disk.
    private(set) var held: Int64 = 0
    private(set) var progressBase: Int64 = 0
    private(set) var expectedTotal: Int64?
    private var validator: Validator?
    /// The request's check of the response headers (``DownloadRequest/headCheck``).
    var headCheck: (@Sendable (HTTPHeaders) -> String?)?

    /// Whether a sidecar may be on disk (one was found before the attempt, or this sink wrote one); when
    /// not, publishing skips the unlink, one syscall less per small file.
    private var sidecarMayExist: Bool

    init(paths: PartPaths, url: String, plan: ResumePlan, memoryLimit: Int, durable: Bool, sidecarFound: Bool) {
        self.paths = paths
        sidecarMayExist = sidecarFound
        self.url = url
        self.plan = plan
        self.memoryLimit = memoryLimit
        self.durable = durable
    }

    func begin(_ head: ResponseHead) -> SinkStart {
        if let why = headCheck?(head.headers) { return .abort(.refusedByHeaders(why)) }
        let d = ResumeDecision.decide(plan: plan, status: head.status, headers: head.headers)
        decision = d
        switch d {
        case .writeFromStart(let expected, let validator):
            self.validator = validator
            expectedTotal = expected
            if let expected, expected > memoryLimit {
                if let reason = spill() { return .abort(reason) }
            } else if let expected, expected > 0 {
                buffer.reserveCapacity(Int(expected))
            }
            return .accept(sniff: true)
        case .append(let offset, let expected):
            if case .resume(_, let v) = plan { validator = v }
            expectedTotal = expected
            held = offset
            progressBase = offset
            do throws(TransferError) { file = try PartFile(path: paths.part, truncate: false, offset: offset) } catch {
                return .abort(error.reason)
            }
            // Mid-file bytes have no signature; the prefix on disk was sniffed when it arrived.
            return .accept(sniff: false)
        case .restart(let why):
            return .abort(.resumeRejected(why))
        case .alreadyComplete, .notApplicable:
            return .accept(sniff: false)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> TransferError.Reason? {
        held += Int64(bytes.count)
        if let file {
            do throws(TransferError) { try file.write(bytes) } catch { return error.reason }
            return nil
        }
        buffer.append(contentsOf: bytes)
        if buffer.count > memoryLimit { return spill() }
        return nil
    }

    /// Moves the body to `NAME.part`. The part is truncated before the new sidecar is written, so a kill in
    /// between leaves an empty part (never resumed) rather than old bytes under a new validator.
    private func spill() -> TransferError.Reason? {
        do throws(TransferError) {
            let f = try PartFile(path: paths.part, truncate: true)
            if validator != nil {
                sidecarMayExist = true
                try paths.saveSidecar(Sidecar(url: url, validator: validator, expectedLength: expectedTotal), durable: durable)
            } else {
                paths.removeSidecar()
            }
            try f.write(buffer)
            buffer = []
            file = f
            return nil
        } catch {
            return error.reason
        }
    }

    // MARK: after the attempt (back on the awaiting task; the loop no longer touches the sink)

    /// Keeps what arrived for a later attempt or process when it can be resumed; otherwise discards it.
    func keepForResume() {
        guard validator != nil, held > 0, decision != nil else { return discard() }
        if file == nil {
            _ = spill()
        }
        file?.close()
        file = nil
    }

    /// Deletes the partial and its sidecar.
    func discard() {
        file?.close()
        file = nil
        buffer = []
        paths.removeAll()
    }

    /// Verifies the length and moves the complete file into place atomically; with `leaveUnpublished`,
    /// a body held whole in memory (no partial of an earlier attempt on record) is handed back instead.
    func complete(leaveUnpublished: Bool = false) throws(TransferError) -> (bytes: Int64, unpublished: UnpublishedDownload?) {
        if let expectedTotal, held != expectedTotal {
            if held < expectedTotal {
                keepForResume()
                throw TransferError(url: url, reason: .truncatedBody(received: held, expected: expectedTotal))
            }
            discard()
            throw TransferError(url: url, reason: .resumeRejected("received \(held) bytes, expected \(expectedTotal)"))
        }
        if leaveUnpublished, file == nil, !sidecarMayExist {
            defer { buffer = [] }
            return (held, UnpublishedDownload(bytes: buffer, destination: paths.destination, durable: durable))
        }
        do throws(TransferError) {
            if let file {
                if durable { try file.sync() }
                file.close()
                self.file = nil
                try Self.publish(paths, durable: durable, removeSidecar: sidecarMayExist)
            } else {
                defer { buffer = [] }
                try Self.publishWhole(buffer, to: paths, durable: durable, removeSidecar: sidecarMayExist)
            }
        } catch {
            discard()
            var e = error
            e.url = url
            throw e
        }
        return (held, nil)
    }

    /// Writes a body held whole in memory to `paths.destination` atomically: an anonymous file linked
    /// under its name when nothing of an earlier attempt is on record (`removeSidecar` false), else (or when
    /// the name is taken, or the file system has no O_TMPFILE) `NAME.part` written whole and renamed. An
    /// existing file at the destination is replaced; on failure the partial is removed.
    static func publishWhole(_ bytes: [UInt8], to paths: PartPaths, durable: Bool, removeSidecar: Bool) throws(TransferError) {
        do throws(TransferError) {
            if !removeSidecar, try createNew(paths.destination, with: bytes, durable: durable) { return }
            let file = try PartFile(path: paths.part, truncate: true)
            try file.write(bytes)
            if durable { try file.sync() }
            file.close()
            try publish(paths, durable: durable, removeSidecar: removeSidecar)
        } catch {
            Syscall.remove(paths.part)
            throw error
        }
    }

    /// ``AtomicWrite/createNew(_:with:durable:)``: false when the anonymous way is refused.
    private static func createNew(_ path: String, with bytes: [UInt8], durable: Bool) throws(TransferError) -> Bool {
        do throws(SystemError) { return try AtomicWrite.createNew(path, with: bytes, durable: durable) } catch {
            throw PartFile.error(error)
        }
    }

    /// Renames `NAME.part` to `NAME` (atomic on one filesystem) and drops the sidecar.
    static func publish(_ paths: PartPaths, durable: Bool, removeSidecar: Bool = true) throws(TransferError) {
        do throws(SystemError) { try Syscall.rename(paths.part, paths.destination) } catch { throw PartFile.error(error) }
        if removeSidecar { paths.removeSidecar() }
        if durable { PartFile.syncDirectory(of: paths.destination) }
    }
}
