import Foundation
import GalleryTestSupport
@testable import GalleryTransfer

/// Shared fixtures for the transfer tests: deterministic bytes and an engine with test-sized limits.
enum Kit {
    /// Pseudo-random bytes (xorshift), different per seed, so a splice of two versions is detectable.
    static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var x = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var out = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            out[i] = UInt8(truncatingIfNeeded: x)
        }
        return out
    }

    /// A JPEG-looking body: the signature, then pseudo-random bytes.
    static func jpeg(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var b = bytes(count, seed: seed)
        b[0] = 0xFF; b[1] = 0xD8; b[2] = 0xFF
        return b
    }

    /// Fast retries and small caps so fault tests take a second, not a minute.
    static func configuration(_ edit: (inout TransferConfiguration) -> Void = { _ in }) -> TransferConfiguration {
        var c = TransferConfiguration()
        c.retry = RetryPolicy(maxAttempts: 4, baseBackoff: 0.02, maxBackoff: 0.1, maxRetryAfter: 3)
        c.deadline = 60  // generous: a loaded test run must not turn slowness into failures
        c.connectTimeout = 3
        c.lowSpeedLimit = 1000
        c.lowSpeedWindow = 2
        edit(&c)
        return c
    }

    static func engine(_ edit: (inout TransferConfiguration) -> Void = { _ in }) -> TransferEngine {
        TransferEngine(configuration: configuration(edit))
    }

    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Runs a download expecting failure and returns the error.
    static func failure(_ engine: TransferEngine, _ request: DownloadRequest) async -> TransferError? {
        do {
            _ = try await engine.download(request)
            return nil
        } catch {
            return error
        }
    }
}

extension Kit {
    /// Runs `body` (and every task it awaits or starts) off the cooperative pool; see `DedicatedTaskExecutor`.
    static func offPool<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        try await DedicatedTaskExecutor.offPool(body)
    }
}
