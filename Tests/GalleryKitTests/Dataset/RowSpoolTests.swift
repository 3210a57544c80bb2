import Foundation
import GalleryImaging
import GallerySync
import GalleryTestSupport
import Glibc
import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// Large downloaded bodies wait for a worker in a spool file, not in memory: a real photograph as a PNG of a
/// few MB, from the fault server, through a whole dataset run. The file is there while the body arrives, gone
/// when its row is done (success or failure), the output is the same bytes as with every body in memory, and a
/// dead process's spool is removed by the next run while a live one's is left alone.
@Suite struct RowSpoolTests {
    /// A demo photograph (1.8 MP) as a PNG: about 3 MB, well over the limit the tests set.
    static let bigPNG: [UInt8] = {
        let photo = PhotoCopies.photos.first { $0.hasSuffix("evening-boats.jpg") }!
        return try! ImageEncoder.encodePNG(ImageDecoder.decode(fileAt: photo).bitmap)
    }()
    static let limit = 64 << 10

    /// Counts the spool's body files each time a row finishes (the run has one row in flight at a time).
    final class Watcher: DatasetRunObserver {
        let spool: String
        let leftAtFinish = Locked<[Int]>([])
        init(spool: String) { self.spool = spool }
        func shardStarted(name: String, rows: Int) {}
        func rowFinished(failed: Bool) { leftAtFinish.withLock { $0.append(RowSpoolTests.bodies(in: spool).count) } }
        func shardFinished(name: String, count: Int, successes: Int) {}
        func shardSkipped(name: String, rows: Int, done: Bool) {}
    }

    /// The `.body` files under a spool folder (every process's), with their sizes.
    static func bodies(in spool: String) -> [String: Int] {
        var found: [String: Int] = [:]
        for folder in (try? FileManager.default.contentsOfDirectory(atPath: spool)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: spool + "/" + folder)) ?? [] where name.hasSuffix(".body") {
                let path = spool + "/" + folder + "/" + name
                found[path] = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            }
        }
        return found
    }

    /// Runs `urls` into `out` (files layout, one download at a time), with bodies over `limit` spooled (nil: none).
    static func run(_ urls: [String], into out: String, in dir: TempDirectory, limit: Int?,
                    observer: (any DatasetRunObserver)? = nil) async throws -> DatasetSummary {
        var options = DatasetOptions(urlList: try dir.write(Array((urls.joined(separator: "\n") + "\n").utf8), to: UUID().uuidString + ".txt"))
        options.outputFolder = out
        options.outputFormat = .files
        options.optOut = nil
        options.jobs = 1
        options.timeout = 20
        options.bodyMemoryLimit = limit
        let run = try DatasetRun(options: options, sink: try LocalFolderSink(folder: out))
        return try await run.run(observer: observer)
    }

    /// Every file of a dataset folder but the stats (whose times differ) and `_info.json` (which names the
    /// folder), with the stats' status counts.
    static func contents(_ out: String) throws -> [String: [UInt8]] {
        var all: [String: [UInt8]] = [:]
        for name in FileManager.default.subpaths(atPath: out) ?? [] where !name.hasSuffix("_stats.json") && name != "_info.json" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: out + "/" + name, isDirectory: &isFolder), !isFolder.boolValue {
                all[name] = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)))
            }
        }
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/00000_stats.json"))) as? [String: Any]
        all["status_dict"] = Array(try JSONSerialization.data(withJSONObject: stats?["status_dict"] ?? [:], options: [.sortedKeys]))
        return all
    }

    @Test func aLargeBodyWaitsInAFileThatGoesWhenItsRowIsDone() async throws {
        let server = try FaultServer()
        let png = Self.bigPNG
        #expect(png.count > 1 << 20)
        // Stalled after 400 KB for 3 s: long enough to look at the spool while the body is half there.
        server.route("/big.png") { _, _ in .file(png, contentType: "image/png").stall(afterBodyBytes: 400_000, seconds: 3) }
        let small = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        server.route("/small.jpg") { _, _ in .file(small, contentType: "image/jpeg") }
        let dir = try TempDirectory(prefix: "row-spool")
        let out = dir.file("out"), spool = out + "/" + RowSpool.folderName
        server.route("/big-now.png") { _, _ in .file(png, contentType: "image/png") }
        let watcher = Watcher(spool: spool)
        let seen = Locked<Int>(0), stop = Locked(false)
        // Looked at from a thread of its own: a task could wait behind other tests' work on Swift's few
        // cooperative threads for the whole stall (it saw nothing once, in a full suite run).
        NamedThread.start("spool-watch") {
            while !stop.withLock({ $0 }) {
                let largest = Self.bodies(in: spool).values.max() ?? 0
                seen.withLock { $0 = max($0, largest) }
                usleep(20_000)
            }
        }
        let summary = try await Self.run([server.url("/big.png")], into: out, in: dir, limit: Self.limit, observer: watcher)
        stop.withLock { $0 = true }
        #expect(summary.successes == 1)
        // The half-arrived body was on disk, far past what memory may hold of it.
        #expect(seen.withLock { $0 } >= 400_000)
        // No row left its file behind, and the run took its spool away.
        #expect(watcher.leftAtFinish.withLock { $0 } == [0])
        #expect(!FileManager.default.fileExists(atPath: spool))
        // A large and a small body: the same dataset, byte for byte, as with every body in memory.
        let urls = [server.url("/big-now.png"), server.url("/small.jpg")]
        let (spooled, inMemory) = (dir.file("spooled"), dir.file("memory"))
        _ = try await Self.run(urls, into: spooled, in: dir, limit: Self.limit)
        _ = try await Self.run(urls, into: inMemory, in: dir, limit: nil)
        let (a, b) = (try Self.contents(spooled), try Self.contents(inMemory))
        // Two images, their .json, the .parquet, the status counts and sizes.json (the trainer index parquet gets).
        #expect(a.keys.sorted() == b.keys.sorted() && Set(a.keys).isSuperset(of: ["00000.parquet", "sizes.json", "status_dict"])
                && a.keys.filter { $0.hasSuffix(".json") && $0.hasPrefix("00000/") }.count == 2, "\(a.keys.sorted())")
        for (name, bytes) in a { #expect(bytes == b[name], "\(name)") }
    }

    @Test func aBodyCutMidwayFailsAsInMemoryAndLeavesNoFile() async throws {
        let server = try FaultServer()
        let png = Self.bigPNG
        server.route("/cut.png") { _, _ in .file(png, contentType: "image/png").cut(afterBodyBytes: 600_000) }
        let dir = try TempDirectory(prefix: "row-spool")
        let out = dir.file("out"), spool = out + "/" + RowSpool.folderName
        let watcher = Watcher(spool: spool)
        let summary = try await Self.run([server.url("/cut.png")], into: out, in: dir, limit: Self.limit, observer: watcher)
        #expect(summary.failedToDownload == 1)
        #expect(watcher.leftAtFinish.withLock { $0 } == [0])
        #expect(!FileManager.default.fileExists(atPath: spool))
        let inMemory = dir.file("memory")
        _ = try await Self.run([server.url("/cut.png")], into: inMemory, in: dir, limit: nil)
        let (a, b) = (try Self.contents(out), try Self.contents(inMemory))
        #expect(a == b)
        #expect(String(decoding: a["status_dict"] ?? [], as: UTF8.self).contains("urlopen error"))
    }

    @Test func aDeadProcessSpoolIsRemovedAndALiveOneKept() async throws {
        let server = try FaultServer()
        let png = Self.bigPNG
        server.route("/big.png") { _, _ in .file(png, contentType: "image/png") }
        let dir = try TempDirectory(prefix: "row-spool")
        let out = dir.file("out"), spool = out + "/" + RowSpool.folderName
        // A process killed mid-run: its folder with a body in it, its lock file free.
        try FileManager.default.createDirectory(atPath: spool + "/4242-1", withIntermediateDirectories: true)
        _ = try dir.write(png, to: "out/\(RowSpool.folderName)/4242-1/3.body")
        _ = try dir.write([], to: "out/\(RowSpool.folderName)/4242-1.lock")
        // And one of a live process (another --shard of the same dataset): its lock held.
        try FileManager.default.createDirectory(atPath: spool + "/4343-1", withIntermediateDirectories: true)
        _ = try dir.write(png, to: "out/\(RowSpool.folderName)/4343-1/1.body")
        let lock = open(spool + "/4343-1.lock", O_RDWR | O_CREAT, 0o644)
        defer { close(lock) }
        #expect(flock(lock, LOCK_EX | LOCK_NB) == 0)
        let summary = try await Self.run([server.url("/big.png")], into: out, in: dir, limit: Self.limit)
        #expect(summary.successes == 1)
        #expect(!FileManager.default.fileExists(atPath: spool + "/4242-1"))
        #expect(!FileManager.default.fileExists(atPath: spool + "/4242-1.lock"))
        #expect(Self.bodies(in: spool).keys.sorted() == [spool + "/4343-1/1.body"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool).sorted() == ["4343-1", "4343-1.lock"])
    }

    /// A starting process keeps its lock only while its lock file is still at its path: a starting neighbour
    /// that took the file for a dead process's and removed it (or replaced it) leaves a lock that guards
    /// nothing, and the process makes a new one.
    @Test func aLockFileRemovedOrReplacedIsNoLongerOurs() throws {
        let dir = try TempDirectory(prefix: "row-spool-lock")
        let path = dir.file("p.lock")
        let fd = open(path, O_RDWR | O_CREAT, 0o644)
        defer { close(fd) }
        #expect(RowSpool.isStill(fd, at: path))
        #expect(unlink(path) == 0)
        #expect(!RowSpool.isStill(fd, at: path))
        let other = open(path, O_RDWR | O_CREAT, 0o644)
        defer { close(other) }
        #expect(!RowSpool.isStill(fd, at: path))
        #expect(RowSpool.isStill(other, at: path))
    }
}
