import Foundation
import GallerySystem

/// The small JSON file beside a `.part` that makes it resumable: which URL, which version (validator) and
/// how long the whole file is. Without it (or with a different URL) a part file is never resumed.
public struct Sidecar: Codable, Sendable, Equatable {
    /// The URL the partial file belongs to.
    public var url: String
    /// The server's validator for the partial bytes (ETag or Last-Modified).
    public var validator: Validator?
    /// The full length, when the server declared it.
    public var expectedLength: Int64?

    /// Creates a sidecar record.
    public init(url: String, validator: Validator?, expectedLength: Int64?) {
        self.url = url
        self.validator = validator
        self.expectedLength = expectedLength
    }
}

/// The paths used for one destination: `NAME.part` and `NAME.part.meta`.
public struct PartPaths: Sendable, Equatable {
    /// The final path.
    public let destination: String
    /// The partial download beside it.
    public var part: String { destination + ".part" }
    /// The partial's sidecar.
    public var sidecar: String { destination + ".part.meta" }

    /// The paths for a download to `destination`.
    public init(destination: String) { self.destination = destination }

    /// Reads what an earlier attempt or process left. A missing or unreadable sidecar means "not resumable".
    func loadLocal() -> LocalPartial? {
        // access() first: most downloads have no sidecar, and FileManager is costly per small file.
        guard Syscall.exists(sidecar), let data = FileManager.default.contents(atPath: sidecar) else { return nil }
        let meta = try? JSONDecoder().decode(Sidecar.self, from: data)
        let size = Syscall.status(part).map { Int64($0.st_size) } ?? 0
        return LocalPartial(sidecar: meta, partSize: size)
    }

    /// Writes the sidecar atomically (temp file + rename) so a kill never leaves half a JSON document.
    func saveSidecar(_ meta: Sidecar, durable: Bool) throws(TransferError) {
        let tmp = sidecar + ".tmp"
        do {
            let data = try JSONEncoder().encode(meta)
            let file = try PartFile(path: tmp, truncate: true)
            try file.write(Array(data))
            if durable { try file.sync() }
            file.close()
        } catch let e as TransferError {
            throw e
        } catch {
            throw TransferError(url: meta.url, reason: .fileSystem(path: tmp, message: "\(error)"))
        }
        do throws(SystemError) { try Syscall.rename(tmp, sidecar) } catch {
            throw TransferError(url: meta.url, reason: .fileSystem(path: sidecar, message: error.message))
        }
    }

    func removeSidecar() { Syscall.remove(sidecar) }

    func removeAll() {
        Syscall.remove(part)
        Syscall.remove(sidecar)
    }
}
