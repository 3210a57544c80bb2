import CUnbound
import Foundation
import GallerySync
import Glibc

/// One libunbound context run asynchronously: its own worker thread resolves, and a thread of ours
/// waits on the context's descriptor and calls `ub_process`, which delivers each answer to the
/// callback that resumes the waiting task. Lookups from any thread (libunbound locks the context).
///
/// `@unchecked Sendable`: the context pointer is shared, and libunbound's own lock guards it.
final class UnboundContext: @unchecked Sendable {
    private let ctx: OpaquePointer
    private let stopped = Locked(false)

    /// The context pointer carried to another thread (libunbound locks the context itself).
    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }

    /// A context with `options` (`"root-hints:"`, path ...), its worker thread and our delivery thread.
    init(options: [(String, String)]) throws(DNSSetupError) {
        guard let ctx = ub_ctx_create() else { throw DNSSetupError("libunbound could not create a resolver") }
        for (name, value) in options {
            let code = ub_ctx_set_option(ctx, name, value)
            guard code == 0 else {
                ub_ctx_delete(ctx)
                throw DNSSetupError("the recursive resolver refused \(name) \(value): \(String(cString: ub_strerror(code)))")
            }
        }
        let code = ub_ctx_async(ctx, 1)
        guard code == 0 else {
            ub_ctx_delete(ctx)
            throw DNSSetupError("libunbound cannot resolve in the background: \(String(cString: ub_strerror(code)))")
        }
        self.ctx = ctx
        let handle = Handle(pointer: ctx)
        let thread = Thread { [stopped] in Self.deliver(handle.pointer, stopped: stopped) }
        thread.name = "unbound-deliver"
        thread.start()
    }

    deinit { stopped.withLock { $0 = true } }

    /// Waits for answers and hands them to their callbacks until stopped, then frees the context.
    private static func deliver(_ ctx: OpaquePointer, stopped: Locked<Bool>) {
        var descriptor = pollfd(fd: ub_fd(ctx), events: Int16(POLLIN), revents: 0)
        while !stopped.withLock({ $0 }) {
            if poll(&descriptor, 1, 250) > 0 { _ = ub_process(ctx) }
        }
        ub_ctx_delete(ctx)
    }

    /// The outcome of one question (`rrtype` 1 for A, 28 for AAAA, 2 for NS) and its TTL; `.timedOut`
    /// when libunbound has not answered within `timeout` seconds (the question is then cancelled).
    func lookup(_ name: String, rrtype: Int32, timeout: Double) async -> (DNSOutcome, UInt32) {
        await withHandOffContinuation { (continuation: HandOffContinuation<(DNSOutcome, UInt32), Never>) in
            let lookup = UnboundLookup(continuation)
            let data = Unmanaged.passRetained(lookup).toOpaque()
            var id: Int32 = 0
            let code = ub_resolve_async(ctx, name, rrtype, 1, data, { data, error, result in
                let lookup = Unmanaged<UnboundLookup>.fromOpaque(data!).takeRetainedValue()
                lookup.finish(UnboundContext.outcome(error: error, result: result))
                if let result { ub_resolve_free(result) }
            }, &id)
            guard code == 0 else {
                Unmanaged<UnboundLookup>.fromOpaque(data).release()
                lookup.finish((.serverFailure(2), 0))
                return
            }
            let handle = Handle(pointer: ctx)
            lookup.timer = Task { [id] in
                try? await Task.sleep(for: .seconds(timeout))
                guard !Task.isCancelled, lookup.finish((.timedOut, 0)) else { return }
                // A cancelled question's callback never comes: its reference is ours to drop.
                if ub_cancel(handle.pointer, id) == 0 { Unmanaged<UnboundLookup>.fromOpaque(data).release() }
            }
        }
    }

    /// libunbound's result as an outcome: NXDOMAIN, the addresses, "no data", or the server's error code.
    static func outcome(error: Int32, result: UnsafeMutablePointer<ub_result>?) -> (DNSOutcome, UInt32) {
        guard error == 0, let result = result?.pointee else { return (.serverFailure(2), 0) }
        let ttl = UInt32(max(0, result.ttl))
        if result.nxdomain != 0 || result.rcode == 3 { return (.nameError, ttl) }
        guard result.rcode == 0 else { return (.serverFailure(Int(result.rcode)), 0) }
        guard result.havedata != 0, let data = result.data, let lengths = result.len else { return (.noData, ttl) }
        var addresses: [String] = []
        var i = 0
        while let bytes = data[i] {
            // An A or AAAA record's 4 or 16 bytes; other lengths are not addresses.
            if let address = IPAddress(bytes: Array(UnsafeRawBufferPointer(start: bytes, count: Int(lengths[i])))) {
                addresses.append(address.description)
            }
            i += 1
        }
        return addresses.isEmpty ? (.noData, ttl) : (.addresses(addresses), ttl)
    }
}

/// One question's waiting task: resumed once, by the answer or by the timeout, whichever comes first.
final class UnboundLookup: Sendable {
    private let waiting: Locked<HandOffContinuation<(DNSOutcome, UInt32), Never>?>
    private let timerTask = Locked<Task<Void, Never>?>(nil)

    init(_ continuation: HandOffContinuation<(DNSOutcome, UInt32), Never>) { waiting = Locked(continuation) }

    var timer: Task<Void, Never>? {
        get { timerTask.withLock { $0 } }
        set { timerTask.withLock { $0 = newValue } }
    }

    /// Resumes the task with `outcome` unless it was resumed already; true when this call did.
    @discardableResult
    func finish(_ outcome: (DNSOutcome, UInt32)) -> Bool {
        guard let continuation = waiting.withLock({ w -> HandOffContinuation<(DNSOutcome, UInt32), Never>? in
            defer { w = nil }
            return w
        }) else { return false }
        timerTask.withLock { $0?.cancel() }
        continuation.resume(returning: outcome)
        return true
    }
}
