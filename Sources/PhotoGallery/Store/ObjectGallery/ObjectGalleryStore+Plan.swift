import Foundation

extension ObjectGalleryStore {
    /// The plan's URL in the store: `s3://BUCKET/PREFIX/plan.jsonl`.
    public var planLocation: String { objects.location(of: PlanFile.name) }

    /// Where the plan is made, and fetched to, in the work folder.
    public var localPlanPath: String { PlanFile.path(in: folder) }

    /// Stores the finished plan of the work folder in the bucket, whole: one PUT, or a multipart
    /// upload completed only once every part is stored, so a shard never reads part of a plan.
    /// An earlier plan under the key is replaced (planning again over the same listing writes the same bytes).
    public func publishPlan() async throws(GalleryStoreError) {
        do {
            _ = try await objects.put(file: localPlanPath, as: PlanFile.name,
                                      ObjectPutOptions(contentType: GalleryFileKind.contentType(of: PlanFile.name), cacheControl: "no-cache"))
        } catch { throw .failed("\(planLocation): \(error.description) (the plan is in \(localPlanPath))") }
    }

    /// Fetches the plan from the bucket into the work folder (streamed to disk, replacing a copy an
    /// earlier run left there) and returns its local path. A bucket with no plan under the prefix,
    /// refused keys, a missing bucket or a store that does not answer are ``GalleryStoreError/unavailable(_:)``.
    public func fetchPlan() async throws(GalleryStoreError) -> String {
        do throws(GalleryError) { try POSIX.makeDirectories(folder) } catch {
            throw .unavailable(S3Error.file(path: folder, reason: error.description).description)
        }
        let bytes: Int64?
        do { bytes = try await objects.get(PlanFile.name, to: localPlanPath) } catch {
            throw .unavailable(error.description)
        }
        guard bytes != nil else {
            throw .unavailable("plan \(planLocation) is not there: make it with 'fetch-gallery plan --out \(planLocation.dropLast(PlanFile.name.count))' "
                + "(or check the bucket, the prefix and the endpoint)")
        }
        return localPlanPath
    }
}
