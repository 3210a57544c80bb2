import Foundation
import GalleryTestSupport
import GalleryTestTraits
import Testing

/// `deploy/kubernetes/object-storage/`: shards writing to a bucket with no volume, keys from a Secret.
/// The manifests are parsed, and the containers' own arguments run against the test RGW.
@Suite(.gatewayStarted) struct KubernetesObjectStorageTests {
    static func documents(_ name: String) throws -> [[String: Any]] {
        try KubernetesManifestTests.documents("object-storage/" + name)
    }

    @Test func shardsAndMergeWriteToTheBucketWithKeysFromTheSecretAndNoVolume() throws {
        let secret = try #require(try Self.documents("s3-secret.yaml").first)
        #expect(secret["kind"] as? String == "Secret")
        let secretName = (secret["metadata"] as? [String: Any])?["name"] as? String
        let keys = Set(((secret["stringData"] as? [String: Any]) ?? [:]).keys)
        #expect(keys == ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"])

        let shards = try #require(try Self.documents("shards-job.yaml").first)
        let merge = try #require(try Self.documents("merge-job.yaml").first)
        let spec = shards["spec"] as? [String: Any] ?? [:]
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        var args = KubernetesManifestTests.container(shards)["args"] as? [String] ?? []
        var mergeArgs = KubernetesManifestTests.container(merge)["args"] as? [String] ?? []
        #expect(KubernetesManifestTests.value("--shards", in: args) == String(completions))
        #expect(KubernetesManifestTests.value("--shards", in: mergeArgs) == String(completions))
        let out = try #require(KubernetesManifestTests.value("--out", in: args))
        #expect(out.hasPrefix("s3://") && mergeArgs.dropFirst().first == out)
        for job in [shards, merge] {
            // No claim: the only volume is the pod's own scratch folder; the keys come from the Secret.
            let volumes = KubernetesManifestTests.podSpec(job)["volumes"] as? [[String: Any]] ?? []
            #expect(volumes.allSatisfy { $0["persistentVolumeClaim"] == nil && $0["emptyDir"] != nil })
            let sources = KubernetesManifestTests.container(job)["envFrom"] as? [[String: Any]] ?? []
            #expect(sources.contains { ($0["secretRef"] as? [String: Any])?["name"] as? String == secretName })
        }

        // The pods' arguments as written, with the API, the bucket and the service replaced by local ones.
        let s3 = try S3CLIKit()
        let api = try GalleryCLIKit(pages: completions + 2, perPage: 1)
        let dir = try TempDirectory()
        let bucket = "s3://\(s3.bucket)/k8s/"
        args[args.firstIndex(of: "--api")! + 1] = api.server.baseURL
        args[args.firstIndex(of: "--pages")! + 1] = String(completions + 2)
        args[args.firstIndex(of: "--out")! + 1] = bucket
        args[args.firstIndex(of: "--s3-endpoint")! + 1] = s3.gateway.endpoint
        args += ["--sizes", "64", "--workers", "1"]
        for index in 0..<completions {
            var podArgs = args
            podArgs[podArgs.firstIndex(of: "--work-dir")! + 1] = dir.file("pod\(index)")
            let pod = try ProcessRunner.run(GalleryCLIKit.binary, podArgs,
                                            environment: s3.environment(home: dir.path).merging(["JOB_COMPLETION_INDEX": String(index)]) { $1 },
                                            timeout: 60)
            #expect(pod.exitCode == 0, "index \(index): \(pod.stderrText)")
        }
        mergeArgs[1] = bucket
        mergeArgs[mergeArgs.firstIndex(of: "--s3-endpoint")! + 1] = s3.gateway.endpoint
        mergeArgs[mergeArgs.firstIndex(of: "--work-dir")! + 1] = dir.file("merge")
        let merged = try ProcessRunner.run(GalleryCLIKit.binary, mergeArgs, environment: s3.environment(home: dir.path), timeout: 60)
        #expect(merged.exitCode == 0, "\(merged.stderrText)")
        try s3.mirror("k8s/", into: dir.file("bucket"))
        #expect(try GalleryCLIKit.manifestPhotos(dir.file("bucket")).map { $0["id"] as? Int ?? 0 } == api.allIDs)
    }
}
