import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
@testable import PhotoGallery
@testable import GalleryRunner

/// Stores are opened from their location in GalleryKit, and each one carries a command's whole
/// lifecycle: the commands never name a kind of store.
@Suite struct GalleryStoresTests {
    static let keys = ["AWS_ACCESS_KEY_ID": "AKIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "HOME": "/nonexistent"]

    static func options(_ environment: [String: String] = keys, work: String? = nil) -> GalleryStoreOptions {
        var options = GalleryStoreOptions()
        options.endpoint = "http://127.0.0.1:7480"
        options.environment = environment
        options.workFolder = work
        return options
    }

    @Test func aFolderOpensAsItselfAndAnS3LocationAsABucket() throws {
        let work = try TempDirectory()
        let folder = try GalleryStores.open(work.path + "/gallery", options: Self.options())
        #expect(folder is LocalFolderStore && folder.folder == work.path + "/gallery")
        #expect(!FileManager.default.fileExists(atPath: work.path + "/gallery"), "opening a folder store makes nothing")

        let bucket = try GalleryStores.open("s3://photos/2026/", options: Self.options(work: work.path + "/work"))
        let s3 = try #require(bucket as? ObjectGalleryStore)
        #expect(s3.location == "s3://photos/2026/" && s3.folder == work.path + "/work")
        #expect(s3.planLocation == "s3://photos/2026/plan.jsonl")
        #expect(GalleryStores.isRemote("s3://photos") && !GalleryStores.isRemote("s3-folder/gallery"))
    }

    /// A location or settings that cannot make a store are a usage error (exit status 2) naming what is wrong.
    @Test func unusableLocationsAndSettingsAreUsageErrors() throws {
        var badAddressing = Self.options()
        badAddressing.addressing = "sideways"
        var noUploads = Self.options()
        noUploads.uploads = 0
        let cases: [(String, GalleryStoreOptions, String)] = [
            ("s3://", Self.options(), "invalid S3 location"),
            ("s3://bkt/a//x", Self.options(), "empty path segment"),
            ("s3://bkt/p", Self.options(["HOME": "/nonexistent"]), "no S3 credentials"),
            ("s3://bkt/p", badAddressing, "path or virtual"),
            ("s3://bkt/p", noUploads, "at least 1"),
            ("s3://bkt/p", Self.options(work: "/proc/no-such-work-folder"), "cannot use the work folder /proc/no-such-work-folder"),
        ]
        for (location, options, words) in cases {
            #expect {
                _ = try GalleryStores.open(location, options: options)
            } throws: { error in
                guard let error = error as? GalleryStoreError, case .settings(let text) = error else { return false }
                return error.outcome.exitStatus == 2 && text.contains(words)
            }
        }
    }

    /// The store's host gets its own limit on the engine that also downloads the photos; a folder's
    /// location, or one that cannot be parsed, changes nothing.
    @Test func theStoresHostGetsItsOwnLimit() {
        var options = Self.options()
        options.uploads = 7
        var configuration = TransferConfiguration()
        GalleryStores.limitHost(of: "gallery", options: options, in: &configuration)
        GalleryStores.limitHost(of: "s3://", options: options, in: &configuration)
        #expect(configuration.hostLimits.isEmpty)
        GalleryStores.limitHost(of: "s3://photos/g", options: options, in: &configuration)
        #expect(configuration.hostLimits == ["127.0.0.1:7480": HostLimit(maxConcurrent: 7)])
    }

    /// A folder's lifecycle: nothing to check or fetch; the plan and the parts are where the commands
    /// make them.
    @Test func aFoldersLifecycleIsTheFolder() async throws {
        let dir = try TempDirectory()
        let store: any GalleryStore = LocalFolderStore(folder: dir.path)
        try await store.prepare(journal: GalleryNaming.journalPath)
        try await store.check()
        #expect(store.planLocation == dir.path + "/plan.jsonl")
        #expect(try await store.fetchPlan() == dir.path + "/plan.jsonl")
        try await store.publishPlan()
        #expect(try await store.fetchParts().isEmpty)
        #expect(try await store.finishMerge() == 0)
        #expect(store.activity == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "the lifecycle wrote into the folder")
        // A run from a plan that is not there: the source is unreadable (exit status 3), naming the file.
        await #expect {
            _ = try await store.planSource()
        } throws: { error in
            guard let error = error as? GalleryStoreError else { return false }
            return error.outcome == .unreadable && error.description.contains(dir.path + "/plan.jsonl")
        }
    }
}
