import Foundation
import GallerySync
import GallerySystem

#if canImport(Glibc)
import Glibc
#endif

/// One derived image on disk, ready to serve.
public struct CachedDemoImage: Sendable, Equatable {
    /// Absolute path of the file.
    public let path: String
    public let format: DemoImageFormat
    let validators: RepresentationValidators

    /// Size of the file in bytes.
    public var length: Int { validators.length }
    /// The strong ETag the server sends, with its quotes.
    public var entityTag: String { validators.entityTag }
}

/// The on-disk cache of derived images: renders each image the first time it is asked for, writes
/// it atomically into a version-stamped folder, and serves later requests (and later runs) from
/// the file.
///
/// Concurrent first requests for the same image share one render (single flight). Separate
/// processes sharing the folder may both render, but each writes a private temporary file and
/// renames it into place, and renders are deterministic, so readers never see a partial file.
public final class DemoImageStore: Sendable {
    /// The version-stamped folder holding the files.
    public let folder: URL
    private let renderer: any DemoImageRendering
    private let limiter: RenderLimiter
    private let inFlight = Locked<[Key: Task<CachedDemoImage, any Error>]>([:])

    private struct Key: Hashable {
        let id: Int
        let size: DemoImageSize
    }

    /// - Parameters:
    ///   - folder: where to keep the files (created on first write).
    ///   - renderer: makes the bytes of an image not yet cached.
    ///   - concurrentRenders: how many images may be rendered at once (each may hold ~100 MB).
    public init(folder: URL, renderer: any DemoImageRendering, concurrentRenders: Int) {
        self.folder = folder
        self.renderer = renderer
        self.limiter = RenderLimiter(limit: concurrentRenders)
    }

    /// The file for one size of one photo, rendering it first if needed.
    public func image(for photo: DemoPhoto, size: DemoImageSize) async throws(DemoError) -> CachedDemoImage {
        let url = fileURL(for: photo, size: size)
        if let cached = Self.stat(url, photo: photo, size: size) { return cached }
        let key = Key(id: photo.id, size: size)
        let task = inFlight.withLock { table in
            if let running = table[key] { return running }
            let task = Task<CachedDemoImage, any Error> {
                // Runs only after this lock is released, so the entry is always there to remove.
                defer { _ = self.inFlight.withLock { $0.removeValue(forKey: key) } }
                return try await self.produce(photo, size: size, at: url)
            }
            table[key] = task
            return task
        }
        do {
            return try await task.value
        } catch let error as DemoError {
            throw error
        } catch {
            throw .renderFailed(photoID: photo.id, size: size.rawValue, reason: String(describing: error))
        }
    }

    /// Renders every given size of every given photo that is not cached yet (`--warm`).
    public func warm(_ photos: [DemoPhoto], sizes: [DemoImageSize] = DemoImageSize.allCases) async throws(DemoError) {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for photo in photos {
                    for size in sizes {
                        // The limiter bounds the real work; these tasks mostly wait their turn.
                        group.addTask { _ = try await self.image(for: photo, size: size) }
                    }
                }
                try await group.waitForAll()
            }
        } catch let error as DemoError {
            throw error
        } catch {
            throw .renderFailed(photoID: photos.first?.id ?? 0, size: 0, reason: String(describing: error))
        }
    }

    /// Deletes temporary files left by renders that were killed mid-write (older than `age`
    /// seconds, so files still being written by a live process are left alone). Returns how many.
    @discardableResult
    public func removeStaleTemporaryFiles(olderThan age: Double = 600) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(".") && name.hasSuffix(".part") {
            let url = folder.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            if let modified, Date().timeIntervalSince(modified) > age, (try? FileManager.default.removeItem(at: url)) != nil {
                removed += 1
            }
        }
        return removed
    }

    func fileURL(for photo: DemoPhoto, size: DemoImageSize) -> URL {
        folder.appendingPathComponent("\(photo.id)-\(size.rawValue).\(photo.format.fileExtension)")
    }

    private func produce(_ photo: DemoPhoto, size: DemoImageSize, at url: URL) async throws(DemoError) -> CachedDemoImage {
        // Another process (or an earlier flight) may have finished it meanwhile.
        if let cached = Self.stat(url, photo: photo, size: size) { return cached }
        let renderer = self.renderer
        let bytes = try await limiter.run { () throws(DemoError) -> [UInt8] in try renderer.render(photo, size: size) }
        try Self.writeAtomically(bytes, to: url)
        guard let cached = Self.stat(url, photo: photo, size: size) else {
            throw .cacheWriteFailed(path: url.path, reason: "file vanished right after it was written")
        }
        return cached
    }

    /// Writes to a unique temporary name in the same folder, then `rename(2)`s over the final
    /// name, which replaces atomically on POSIX file systems.
    static func writeAtomically(_ bytes: [UInt8], to url: URL) throws(DemoError) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).part")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .cacheWriteFailed(path: url.path, reason: String(describing: error))
        }
        do throws(SystemError) { try Syscall.rename(temporary.path, url.path) } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .cacheWriteFailed(path: url.path, reason: error.message)
        }
    }

    /// The cached file's validators, or `nil` when it does not exist yet.
    ///
    /// The ETag is strong: it names the derivation version, photo and size, plus the file's length
    /// and modification time in milliseconds, so any re-render (even with a different libjpeg
    /// producing other bytes) gets a new tag.
    static func stat(_ url: URL, photo: DemoPhoto, size: DemoImageSize) -> CachedDemoImage? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              let length = (attributes[.size] as? NSNumber)?.intValue, length > 0,
              let modified = attributes[.modificationDate] as? Date
        else { return nil }
        let millis = Int((modified.timeIntervalSince1970 * 1000).rounded(.down))
        let tag = "\"dv\(DemoCacheLocation.derivationVersion)-\(photo.id)-\(size.rawValue)-"
            + "\(String(length, radix: 16))-\(String(millis, radix: 16))\""
        let validators = RepresentationValidators(
            length: length, entityTag: tag, lastModified: Int(modified.timeIntervalSince1970.rounded(.down)))
        return CachedDemoImage(path: url.path, format: photo.format, validators: validators)
    }
}
