import Foundation
import GallerySync
import GalleryTestSupport

/// Finds the built `fetch-gallery` (tests run after `swift build --build-tests`, which builds it).
enum DownloadCLI {

    static var binary: String { (try? BuiltProduct.path()) ?? "fetch-gallery (not built)" }

    /// Pseudo-random bytes that differ per seed, behind a JPEG signature (`download` refuses bodies that are
    /// not images unless `--any-file`).
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var x = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var b = (0..<count).map { _ in
            x ^= x << 13; x ^= x >> 7; x ^= x << 17
            return UInt8(truncatingIfNeeded: x)
        }
        for (i, m) in [UInt8(0xFF), 0xD8, 0xFF].enumerated() where i < b.count { b[i] = m }
        return b
    }

    /// Runs the binary to completion. The wait happens on a thread of its own: blocking a cooperative-pool
    /// thread (2 on this machine) would stall every async test running beside this one.
    static func run(_ arguments: [String], timeout: Double = 60) async throws -> ProcessResult {
        await wait(try ProcessRunner(binary, arguments), timeout: timeout)
    }

    static func wait(_ runner: ProcessRunner, timeout: Double) async -> ProcessResult {
        await withHandOffContinuation { c in
            Thread { c.resume(returning: runner.wait(timeout: timeout)) }.start()
        }
    }

    /// sha256 of a file with coreutils (Foundation on Linux has no SHA-2).
    static func sha256(_ path: String) async throws -> String {
        let r = await wait(try ProcessRunner("sha256sum", [path]), timeout: 30)
        return String(r.stdoutText.prefix(64))
    }

    static func sha256(bytes: [UInt8], in dir: TempDirectory) async throws -> String {
        try await sha256(try dir.write(bytes, to: "reference-\(UUID().uuidString)"))
    }
}
