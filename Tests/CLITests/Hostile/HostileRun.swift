import Foundation
import GallerySync
import GalleryTestSupport
import Testing

/// The hostile-network end-to-end suites, one run at a time: each run is a busy `fetch-gallery` process,
/// and several at once on a 2-core machine would slow the timing-sensitive CLI tests beside them.
@Suite(.serialized) struct HostileNetwork {}

/// One run of the real `fetch-gallery` binary against a `HostileAPI`, and the checks every hostile run
/// must pass: within its deadline, the right exit status, fetchable photos byte-exact, the others failed
/// with a reason, nothing written outside the output folder, no injected markup in the pages.
struct HostileRun {
    let parent: TempDirectory
    /// `PARENT/work/gallery`: a `../` that escaped would land in `work/` or `PARENT`, both watched.
    let out: String
    let result: ProcessResult
    let manifest: [[String: Any]]
    /// The process's peak resident memory, sampled from /proc while it ran.
    let peakKiB: Int

    /// Seconds each download may take across its attempts: short, so stalls end quickly.
    static let deadline = 8.0

    /// Runs the binary; `wallLimit` is the most the whole run may take (generous for a loaded 2-core box).
    static func run(_ api: HostileAPI, pages: Int, extra: [String] = [], wallLimit: Double = 60) async throws -> HostileRun {
        api.start()
        let parent = try TempDirectory(prefix: "fetch-gallery-hostile")
        try FileManager.default.createDirectory(atPath: parent.file("work"), withIntermediateDirectories: true)
        let out = parent.file("work/gallery")
        let before = Self.tree(parent.path)
        let arguments = ["--api", api.base, "--pages", String(pages), "--out", out, "--progress", "json",
                         "--deadline", String(deadline), "--jobs", "64", "--per-host", "64", "--workers", "2",
                         "--sizes", "64"] + extra
        let (result, peakKiB) = try await Self.measured(GalleryCLIKit.binary, arguments, timeout: wallLimit + 30)
        // Bombs, huge lengths and endless headers are refused early: memory stays that of a normal run.
        #expect(peakKiB < 300 * 1024, "peak resident memory \(peakKiB / 1024) MiB")
        #expect(!result.timedOut, "the run outlived \(wallLimit + 30) s and was killed")
        #expect(result.duration < wallLimit, "the run took \(result.duration) s (limit \(wallLimit) s)")
        // Nothing appeared outside the gallery folder (an escaped "../" name, a stray temporary file).
        let outside = Self.tree(parent.path).subtracting(before).filter { !($0 == "work/gallery" || $0.hasPrefix("work/gallery/")) }
        #expect(outside.isEmpty, "written outside the gallery: \(outside.sorted())")
        let manifest = (try? GalleryCLIKit.manifestPhotos(out)) ?? []
        // HOSTILE_VERBOSE=1 prints what each photo became, to read the reasons by eye.
        if ProcessInfo.processInfo.environment["HOSTILE_VERBOSE"] != nil {
            print("exit \(String(describing: result.exitCode)) in \(result.duration) s, peak \(peakKiB / 1024) MiB")
            for photo in manifest {
                print("  \(photo["id"] ?? "?") \(photo["status"] ?? "?") \(photo["original"] ?? "") \(photo["error"] ?? "")")
            }
            print(result.stderrText)
        }
        return HostileRun(parent: parent, out: out, result: result, manifest: manifest, peakKiB: peakKiB)
    }

    /// Runs a program to its end on a GCD thread: waiting on the cooperative pool (one thread per core)
    /// for seconds would starve the timing-sensitive CLI tests running beside this suite.
    static func process(_ executable: String, _ arguments: [String], timeout: Double) async throws -> ProcessResult {
        try await measured(executable, arguments, timeout: timeout).result
    }

    /// `process`, also sampling the child's peak resident memory (VmHWM in /proc, KiB) while it runs.
    static func measured(_ executable: String, _ arguments: [String], timeout: Double) async throws
        -> (result: ProcessResult, peakKiB: Int) {
        try await withThrowingHandOffContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    let runner = try ProcessRunner(executable, arguments)
                    let deadline = Date().addingTimeInterval(timeout)
                    var peak = 0
                    while !runner.hasExited && Date() < deadline {
                        peak = max(peak, Self.highWaterMark(runner.pid) ?? 0)
                        usleep(20_000)
                    }
                    continuation.resume(returning: (runner.wait(timeout: max(0, deadline.timeIntervalSinceNow)), peak))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// The peak resident set of a running process in KiB, from /proc/PID/status.
    static func highWaterMark(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    var byID: [Int: [String: Any]] {
        var out: [Int: [String: Any]] = [:]
        for photo in manifest { if let id = photo["id"] as? Int { out[id] = photo } }
        return out
    }

    /// Checks every expectation of `api` against the gallery, plus the invariants of any gallery.
    func verify(_ api: HostileAPI, exitStatus: Int32) throws {
        #expect(result.exitCode == exitStatus, "exit \(String(describing: result.exitCode)), stderr:\n\(result.stderrText)")
        let ids = manifest.compactMap { $0["id"] as? Int }
        #expect(ids.count == Set(ids).count, "a photo is in the manifest twice: \(ids)")
        let entries = byID
        for (id, expectation) in api.expectations.sorted(by: { $0.key < $1.key }) {
            let entry = entries[id]
            switch expectation {
            case .ok(let bytes):
                #expect(entry?["status"] as? String == "ok", "photo \(id): \(entry?["error"] ?? "not in the manifest")")
                guard let original = entry?["original"] as? String else { continue }
                let path = out + "/" + original
                let onDisk = FileManager.default.contents(atPath: path).map { [UInt8]($0) }
                #expect(onDisk == bytes, "photo \(id): \(original) is not byte-exact (\(onDisk?.count ?? -1) of \(bytes.count) bytes)")
                #expect(entry?["sha256"] as? String == Self.sha256(path), "photo \(id): manifest sha256 differs from the file")
                let thumbs = entry?["thumbnails"] as? [String: String] ?? [:]
                #expect(thumbs["64"].map { FileManager.default.fileExists(atPath: out + "/" + $0) } == true,
                        "photo \(id): no thumbnail")
            case .failed(let phrases):
                #expect(entry?["status"] as? String == "failed", "photo \(id) should have failed: \(entry ?? [:])")
                let reason = entry?["error"] as? String ?? ""
                #expect(phrases.contains { reason.contains($0) }, "photo \(id): reason \"\(reason)\" has none of \(phrases)")
                #expect(!reason.isEmpty)
                // A failed photo leaves no original in photos/.
                #expect(entry?["original"] == nil || entry?["original"] is NSNull, "photo \(id) failed but has an original")
            case .absent:
                #expect(entry == nil, "photo \(id) should not be in the gallery")
            }
        }
        // Server text reaches the terminal only cleaned: no ESC, BEL or other control characters.
        for (stream, text) in [("stderr", result.stderrText), ("stdout", result.stdoutText)] {
            let controls = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F }
            #expect(controls.isEmpty, "\(stream) carries control characters \(controls.map { $0.value })")
        }
        for path in api.untouchedPaths {
            #expect(api.server.requests(path: path).isEmpty, "\(path) was requested")
        }
        try verifyFolder(injected: api.injectedMarkup)
    }

    /// The folder holds only what the gallery writes, with safe names, and no page carries injected markup.
    func verifyFolder(injected: [String]) throws {
        let files = Self.tree(out).sorted()
        // Partial downloads of failed photos stay beside their target for the next run to resume.
        // Files are fanned out into sub-folders named by the id's last three digits.
        let safeName = /^([a-z0-9][a-z0-9-]*\.(jpg|png|html)(\.part|\.part\.meta)?|[0-9]{3})$/
        for file in files where file.hasPrefix("photos/") || file.hasPrefix("pages/") || file.hasPrefix("thumbs/64/") {
            let name = (file as NSString).lastPathComponent
            #expect(name.wholeMatch(of: safeName) != nil, "unsafe name \(file)")
            #expect(name.utf8.count <= 255)
        }
        // No partial or temporary leftovers of a finished run beside the published files.
        #expect(files.filter { $0.hasPrefix("photos/") && ($0.hasSuffix(".tmp") || $0.contains(".tmp-")) }.isEmpty)
        for file in files where file.hasSuffix(".html") {
            let html = try String(contentsOfFile: out + "/" + file, encoding: .utf8)
            for markup in injected {
                #expect(!html.contains(markup), "\(file) contains the injected \(markup)")
            }
            #expect(!html.unicodeScalars.contains { $0.value == 0 || $0 == "\u{202E}" }, "\(file) carries a NUL or RLO")
            // A failure reason may quote a javascript: URL as text, but no link or source may be one.
            #expect(html.lowercased().firstMatch(of: /(href|src|srcset|action)\s*=\s*["']?\s*javascript:/) == nil,
                    "\(file) links to javascript:")
        }
        // Every file is a regular file or folder inside the gallery: no symlink could point out.
        for file in files {
            var info = stat()
            #expect(lstat(out + "/" + file, &info) == 0 && (info.st_mode & S_IFMT) != S_IFLNK, "\(file) is a symlink")
        }
    }

    /// Every path below `root` (folders too), relative, hidden ones included.
    static func tree(_ root: String) -> Set<String> {
        Set(FileManager.default.enumerator(atPath: root)?.allObjects.compactMap { $0 as? String } ?? [])
    }

    /// The sha256 of a file by the system's sha256sum (independent of the product's own hashing).
    static func sha256(_ path: String) -> String? {
        guard let result = try? ProcessRunner.run("sha256sum", [path], timeout: 30), result.exitCode == 0 else { return nil }
        return result.stdoutText.split(separator: " ").first.map(String.init)
    }

    /// The JSON progress events the run printed.
    var events: [[String: Any]] {
        result.stdoutText.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }
}
