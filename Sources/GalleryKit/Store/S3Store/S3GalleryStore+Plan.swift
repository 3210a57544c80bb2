import Foundation

extension S3GalleryStore {
    /// The plan's URL in the store: `s3://BUCKET/PREFIX/plan.jsonl`.
    public var planLocation: String { "s3://\(bucketLocation.bucket)/\(bucketLocation.key(PlanFile.name))" }

    /// Where the plan is made, and fetched to, in the work folder.
    public var localPlanPath: String { PlanFile.path(in: folder) }

    /// Stores the finished plan of the work folder in the bucket, whole: one PUT, or a multipart
    /// upload completed only once every part is stored, so a shard never reads part of a plan.
    /// An earlier plan under the key is replaced (planning again over the same listing writes the same bytes).
    public func publishPlan() async throws(GalleryError) {
        do {
            _ = try await client.putFile(key: bucketLocation.key(PlanFile.name), path: localPlanPath,
                                         contentType: GalleryFileKind.contentType(of: PlanFile.name), cacheControl: "no-cache")
        } catch { throw .store(location: planLocation, reason: error.description) }
    }

    /// Fetches the plan from the bucket into the work folder (streamed to disk, replacing a copy an
    /// earlier run left there) and returns its local path. Throws ``S3PlanError/missing(location:)``
    /// when the bucket holds no plan under the prefix, and the client's error for refused keys, a
    /// missing bucket or a store that does not answer.
    public func fetchPlan() async throws(S3PlanError) -> String {
        do throws(GalleryError) { try POSIX.makeDirectories(folder) } catch {
            throw .store(.file(path: folder, reason: error.description))
        }
        let bytes: Int64?
        do { bytes = try await client.download(key: bucketLocation.key(PlanFile.name), to: localPlanPath) } catch {
            throw .store(error)
        }
        guard bytes != nil else { throw .missing(location: planLocation) }
        return localPlanPath
    }
}

/// Why `run --from-plan` could not get its plan from the store.
public enum S3PlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bucket answers, but holds no plan under the prefix.
    case missing(location: String)
    /// The store refused, was missing, or failed.
    case store(S3Error)

    public var description: String {
        switch self {
        case let .missing(location):
            "plan \(location) is not there: make it with 'fetch-gallery plan --out \(location.dropLast(PlanFile.name.count))' "
                + "(or check the bucket, the prefix and the endpoint)"
        case let .store(error): error.description
        }
    }
}
