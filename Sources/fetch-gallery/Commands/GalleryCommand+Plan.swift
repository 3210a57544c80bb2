import ArgumentParser
import GalleryKit

/// `run --from-plan`: the plan in the gallery folder, or fetched from the bucket of `--out s3://`.
extension GalleryCommand {
    /// The plan at `path` as the run's source; an unreadable or damaged plan prints a line and exits 3.
    static func planSource(at path: String) throws -> GalleryJob.Source {
        do { return .plan(path: path, source: try PlanFile.header(at: path).source) } catch {
            StandardError.line("fetch-gallery: \(error)")
            throw ExitCode(3)
        }
    }

    /// The plan of `store` (`s3://BUCKET/PREFIX/plan.jsonl`), fetched into its work folder, as the run's
    /// source; called after the bucket was checked, before any photo is downloaded. A missing plan
    /// object, refused keys or a store that does not answer print a line and exit 3.
    static func planSource(from store: S3GalleryStore) async throws -> GalleryJob.Source {
        let path: String
        do throws(S3PlanError) { path = try await store.fetchPlan() } catch {
            StandardError.line("fetch-gallery: \(error)")
            throw ExitCode(3)
        }
        return try planSource(at: path)
    }
}
