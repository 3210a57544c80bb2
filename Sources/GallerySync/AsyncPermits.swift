/// A counting semaphore for tasks: the gallery's feed takes a permit for each photo it hands on and the
/// photo gives it back when done, so the feed runs at most `permits` photos ahead of the finished
/// ones and memory stays flat however long the run is.
public actor AsyncPermits {
    private var available: Int
    private var waiters: [HandOffContinuation<Bool, Never>] = []
    private var closed = false

    public init(_ permits: Int) { available = max(1, permits) }

    /// Waits for a permit; false when closed (the run is stopping).
    public func acquire() async -> Bool {
        if closed { return false }
        if available > 0 {
            available -= 1
            return true
        }
        return await withHandOffContinuation { waiters.append($0) }
    }

    public func release() {
        if !waiters.isEmpty {
            waiters.removeFirst().resume(returning: true)
        } else {
            available += 1
        }
    }

    /// Wakes every waiter with false and refuses later requests.
    public func close() {
        closed = true
        for waiter in waiters { waiter.resume(returning: false) }
        waiters.removeAll()
    }
}
