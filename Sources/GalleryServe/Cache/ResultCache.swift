import Foundation
import GalleryKit
import GallerySync
import GallerySystem

/// Encoded results by key, bounded in bytes, least recently used evicted first. With a folder the
/// results live on disk (one file per key, named by the key's SHA-256, published atomically) and
/// survive a restart: a hit sets its file's modification time, so the index rebuilt from the folder
/// after a restart has the least recently used first in line for eviction. Without one they live in
/// memory. File reads and writes run on two threads of the cache's own, never on Swift's cooperative
/// threads (a slow disk then delays the requests that wait for it, not every request).
final class ResultCache: Sendable {
    private struct Slot { var size: Int64; var tick: UInt64 }
    private struct Index { var slots: [String: Slot] = [:]; var total: Int64 = 0; var tick: UInt64 = 0 }

    let folder: String?
    let limit: Int64
    private let index = Locked(Index())
    private let memory: Cache<String, StoredResult>
    private let io = WorkerPool(threads: 2)

    init(folder: String?, limit: Int64) throws(ServeError) {
        self.folder = folder
        self.limit = limit
        memory = Cache(costLimit: Int(min(limit, Int64(Int.max))), countLimit: 100_000, entryCostFraction: 0.5)
        guard let folder else { return }
        do { try Syscall.makeDirectories(folder) } catch {
            throw ServeError(status: 500, "result cache folder \(folder): \(error)")
        }
        var found: [(name: String, size: Int64, modified: Double)] = []
        let names: [String]
        do { names = try Syscall.names(in: folder) } catch { throw ServeError(status: 500, "result cache folder \(folder): \(error)") }
        for name in names where name.count == 64 && name.allSatisfy(\.isHexDigit) {
            guard let info = Syscall.regularFileStatus(folder + "/" + name) else { continue }
            found.append((name, Int64(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9))
        }
        index.withLock { index in
            for file in found.sorted(by: { $0.modified < $1.modified }) {
                index.tick += 1
                index.slots[file.name] = Slot(size: file.size, tick: index.tick)
                index.total += file.size
            }
        }
        for name in evict() { Syscall.remove(folder + "/" + name) }
    }

    /// Results held and their bytes.
    var usage: (count: Int, bytes: Int64) { index.withLock { ($0.slots.count, $0.total) } }

    func read(_ key: String) async -> StoredResult? {
        guard let folder else { return memory.value(forKey: key) }
        let name = SHA256.hex(Array(key.utf8))
        guard index.withLock({ index -> Bool in
            guard index.slots[name] != nil else { return false }
            index.tick += 1
            index.slots[name]!.tick = index.tick
            return true
        }) else { return nil }
        let path = folder + "/" + name
        let stored = try? await io.run { () -> StoredResult? in
            guard let bytes = try? Syscall.readAll(path), let stored = StoredResult(encoded: bytes) else { return nil }
            Syscall.touch(path)
            return stored
        }
        guard let stored else {
            await remove([name])
            return nil
        }
        return stored
    }

    func write(_ key: String, _ result: StoredResult) async {
        guard let folder else {
            memory.setValue(result, forKey: key, cost: result.body.count + 256)
            return
        }
        let name = SHA256.hex(Array(key.utf8))
        let bytes = result.encoded()
        guard Int64(bytes.count) <= limit / 2 else { return }
        let path = folder + "/" + name
        guard (try? await io.run { try AtomicWrite.replace(path, with: bytes, durable: false) }) != nil else { return }
        index.withLock { index in
            index.tick += 1
            index.total += Int64(bytes.count) - (index.slots[name]?.size ?? 0)
            index.slots[name] = Slot(size: Int64(bytes.count), tick: index.tick)
        }
        await remove(evict())
    }

    /// Forgets `names` and deletes their files on the cache's threads.
    private func remove(_ names: [String]) async {
        guard let folder, !names.isEmpty else { return }
        index.withLock { index in
            for name in names { if let slot = index.slots.removeValue(forKey: name) { index.total -= slot.size } }
        }
        _ = try? await io.run { for name in names { Syscall.remove(folder + "/" + name) } }
    }

    /// Takes least recently used entries out of the index until the total is at most 90% of the
    /// limit, and names them (their files are still to delete).
    private func evict() -> [String] {
        index.withLock { index -> [String] in
            guard index.total > limit else { return [] }
            var names: [String] = []
            for (name, slot) in index.slots.sorted(by: { $0.value.tick < $1.value.tick }) {
                guard index.total > limit / 10 * 9 else { break }
                index.slots[name] = nil
                index.total -= slot.size
                names.append(name)
            }
            return names
        }
    }
}
