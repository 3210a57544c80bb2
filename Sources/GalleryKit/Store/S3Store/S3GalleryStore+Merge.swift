import Foundation

extension S3GalleryStore {
    /// Fetches what `merge` reads into the work folder: every shard's part and summary (the keys under
    /// `shards/` only, never a listing of the whole bucket). Local parts from an earlier merge are
    /// dropped first, so a shard that is running again is not taken as done. Returns the shards
    /// (`K-of-N`) whose journal is in the store: begun, whether or not they finished.
    public func fetchParts() async throws(S3Error) -> Set<String> {
        let local = folder + "/" + ShardLayout.partsFolder
        for name in POSIX.names(in: local) ?? [] { POSIX.remove(local + "/" + name) }
        do { try POSIX.makeDirectories(local) } catch { throw .file(path: local, reason: error.description) }
        let parts = try await client.list(prefix: bucketLocation.key(ShardLayout.partsFolder + "/"))
        for object in parts {
            let name = String(object.key.dropFirst(bucketLocation.key(ShardLayout.partsFolder + "/").count))
            guard !name.isEmpty, !name.contains("/"),
                  name.hasSuffix(ShardLayout.photosSuffix) || name.hasSuffix(ShardLayout.summarySuffix) else { continue }
            guard let data = try await client.get(key: object.key) else { continue }  // deleted since the listing
            do { try AtomicFile.write(Array(data), to: local + "/" + name) } catch {
                throw .file(path: local + "/" + name, reason: error.description)
            }
        }
        let journals = try await client.list(prefix: bucketLocation.key(".fetch-gallery/shards/"))
        var started: Set<String> = []
        for object in journals where object.key.hasSuffix("/journal.jsonl") {
            let pieces = object.key.split(separator: "/")
            if pieces.count >= 2 { started.insert(String(pieces[pieces.count - 2])) }
        }
        return started
    }
}
