import CDigest
import Dispatch
import GallerySync

/// The MD5s of many byte streams, computed together on one thread of their own: while several streams have
/// bytes waiting, their blocks go through the lanes of AVX-512 registers together (eight or sixteen streams at a
/// time), where one stream at a time is all OpenSSL's MD5 can do: 8 streams hash at 7.7 times OpenSSL's speed
/// for one, 16 at 9.2 times, 2 at 1.9 times (on the 2-CPU EPYC this was built on). The streams are the tars a
/// dataset run writes at once, whose MD5s the wids shard index records.
///
/// Without lanes (a processor without AVX-512, or `lanes` 0), each chunk is hashed by OpenSSL on the thread that
/// feeds it, so the streams are hashed side by side on their feeders' threads.
///
/// A stream's chunks are hashed in the order they were fed. The thread waits until every open stream has a chunk
/// waiting (so the lanes are full), but no longer than a stream needs: as soon as one stream has ``backlog``
/// chunks waiting, or is being finished, the chunks there are go through. ``feed(_:_:)`` blocks while its stream
/// has ``backlog`` chunks waiting, so at most that many chunks a stream are held.
public final class MD5Lanes: Sendable {
    /// The process's lanes (one thread, started when first used).
    public static let shared = MD5Lanes(lanes: processorLanes)

    /// One stream's MD5: fed through ``MD5Lanes/feed(_:_:)``, read with ``MD5Lanes/finish(_:)``.
    public final class Stream: @unchecked Sendable {
        // `state` is touched by the lanes' thread only (after `open` has published the stream under the lock);
        // `digest` is set there before `done` is signalled, and read by `finish` after it (under its own lock, so
        // ThreadSanitizer sees the hand-off).
        fileprivate let state = UnsafeMutablePointer<fg_md5>.allocate(capacity: 1)
        fileprivate let digest = Locked("")
        fileprivate let room: DispatchSemaphore
        fileprivate let done = DispatchSemaphore(value: 0)
        /// Without lanes: OpenSSL's MD5, fed on the feeder's thread.
        fileprivate let alone: DigestStream?

        fileprivate init(backlog: Int, alone: Bool) {
            room = DispatchSemaphore(value: backlog)
            self.alone = alone ? DigestStream(.md5) : nil
            fg_md5_init(state)
        }

        deinit { state.deallocate() }
    }

    private struct Waiting {
        let stream: Stream
        var chunks: [[UInt8]] = []
        var finishing = false
    }

    /// 16 when this processor runs the lanes (AVX-512), else 0.
    public static var processorLanes: Int { Int(fg_md5_lanes()) }

    /// 16: chunks of several streams are hashed together on the lanes' thread (in AVX-512's lanes where
    /// ``processorLanes`` is 16, else one after another); 0: each chunk by OpenSSL on the thread that feeds it.
    public let lanes: Int
    /// Chunks a stream may have waiting.
    public let backlog: Int
    private let streams = Locked([ObjectIdentifier: Waiting]())
    private let wake = DispatchSemaphore(value: 0)
    private let started = Locked(false)
    private let laneBatches = Locked((eight: 0, sixteen: 0))

    /// How many times two to eight streams' chunks went through the lanes together, and nine to sixteen.
    public var batchesInLanes: (eight: Int, sixteen: Int) { laneBatches.withLock { $0 } }

    /// Lanes of `lanes` (16, or 0 for one stream at a time), each stream holding at most `backlog` chunks.
    public init(lanes: Int, backlog: Int = 2) {
        precondition(lanes == 0 || lanes == 16, "MD5Lanes has 16 lanes or none")
        self.lanes = lanes
        self.backlog = backlog
    }

    /// A new stream.
    public func open() -> Stream {
        let stream = Stream(backlog: backlog, alone: lanes == 0)
        guard lanes > 0 else { return stream }
        streams.withLock { $0[ObjectIdentifier(stream)] = Waiting(stream: stream) }
        let first = started.withLock { wasStarted in
            defer { wasStarted = true }
            return !wasStarted
        }
        if first { NamedThread.start("fg-md5-lanes") { [self] in run() } }
        return stream
    }

    /// Hands the next chunk of `stream` on; blocks while the stream has ``backlog`` chunks waiting.
    public func feed(_ stream: Stream, _ chunk: [UInt8]) {
        guard !chunk.isEmpty else { return }
        if let alone = stream.alone {
            chunk.withUnsafeBytes { alone.update($0) }
            return
        }
        stream.room.wait()
        streams.withLock { $0[ObjectIdentifier(stream)]?.chunks.append(chunk) }
        wake.signal()
    }

    /// The stream's MD5 as lower-case hex, once every chunk fed has been hashed; the stream is closed after it.
    public func finish(_ stream: Stream) -> String {
        if let alone = stream.alone { return alone.hex() }
        streams.withLock { $0[ObjectIdentifier(stream)]?.finishing = true }
        wake.signal()
        stream.done.wait()
        return stream.digest.withLock { $0 }
    }

    /// Closes a stream that will not be finished (its tar was abandoned).
    public func abandon(_ stream: Stream) {
        _ = finish(stream)
    }

    private func run() {
        while true {
            wake.wait()
            while let (batch, finished) = streams.withLock({ Self.take(&$0, lanes: lanes, backlog: backlog) }) {
                hash(batch)
                for (stream, _) in batch { stream.room.signal() }
                for stream in finished { close(stream) }
            }
        }
    }

    /// The next chunk of each stream that has one, and the streams to close after them, when it is time to hash:
    /// every open stream has a chunk waiting (or sixteen do), a stream's backlog is full, or a stream is finishing.
    /// (Only streams with lanes, 16, come here.)
    private static func take(_ waiting: inout [ObjectIdentifier: Waiting], lanes: Int, backlog: Int)
        -> (batch: [(Stream, [UInt8])], finished: [Stream])? {
        let ready = waiting.values.filter { !$0.chunks.isEmpty }
        let pressed = waiting.values.contains { $0.finishing || $0.chunks.count >= backlog }
        guard pressed || (!ready.isEmpty && ready.count >= min(lanes, waiting.count)) else { return nil }
        var batch: [(Stream, [UInt8])] = []
        for entry in ready {
            batch.append((entry.stream, entry.chunks[0]))
            waiting[ObjectIdentifier(entry.stream)]!.chunks.removeFirst()
        }
        var finished: [Stream] = []
        for (id, entry) in waiting where entry.finishing && entry.chunks.isEmpty {
            finished.append(entry.stream)
            waiting[id] = nil
        }
        return (batch, finished)
    }

    /// Hashes one chunk of each stream of `batch` (each stream appears once), in lanes where two or more do.
    private func hash(_ batch: [(Stream, [UInt8])]) {
        guard !batch.isEmpty else { return }
        let states: [UnsafeMutablePointer<fg_md5>?] = batch.map { $0.0.state }
        let lengths = batch.map { $0.1.count }
        Self.withBases(batch.map(\.1)[...], []) { bases in
            states.withUnsafeBufferPointer { states in
                fg_md5_update_many(states.baseAddress, bases, lengths, Int32(batch.count), Int32(lanes))
            }
        }
        let laned = lengths.filter { $0 >= 64 }.count
        if Self.processorLanes == 16, laned >= 2 {
            laneBatches.withLock { if laned > 8 { $0.sixteen += 1 } else { $0.eight += 1 } }
        }
    }

    /// `body` with the base address of each of `chunks`, all valid at once.
    private static func withBases(_ chunks: ArraySlice<[UInt8]>, _ bases: [UnsafePointer<UInt8>?],
                                  _ body: ([UnsafePointer<UInt8>?]) -> Void) {
        guard let first = chunks.first else { return body(bases) }
        first.withUnsafeBufferPointer { withBases(chunks.dropFirst(), bases + [$0.baseAddress], body) }
    }

    private func close(_ stream: Stream) {
        var digest = [UInt8](repeating: 0, count: 16)
        fg_md5_final(stream.state, &digest)
        stream.digest.withLock { $0 = Digest.hexText(digest[...]) }
        stream.done.signal()
    }
}
