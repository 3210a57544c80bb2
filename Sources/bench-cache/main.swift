import Foundation
import GalleryKit
import GalleryTestSupport

// Measures ImagePipeline on real photographs served by nginx on 127.0.0.1 (Scripts/bench-cache
// builds this in release and runs it):
//   cold   - one request for a photo never seen: download + decode + scale
//   warm   - the same request again: a cache hit
//   N at once - N concurrent requests for one uncached photo (coalesced), against N independent
//            pipelines doing the same (no coalescing), with the downloads and decodes each did.
// Usage: bench-cache DIR [--size 256] [--concurrent 8] [--photos 24]
var arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, _ fallback: Int, in arguments: inout [String]) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let value = Int(arguments[i + 1]) else {
        return fallback
    }
    arguments.removeSubrange(i...(i + 1))
    return value
}
let size = option("--size", 256, in: &arguments)
let concurrent = option("--concurrent", 8, in: &arguments)
let photoLimit = option("--photos", 24, in: &arguments)
guard let directory = arguments.first else {
    FileHandle.standardError.write(Data("usage: bench-cache DIR [--size N] [--concurrent N] [--photos N]\n".utf8))
    exit(2)
}
let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    .filter { ["jpg", "jpeg", "png"].contains(($0 as NSString).pathExtension.lowercased()) }
    .sorted()
guard names.count >= 2 else { fatalError("need at least two photos in \(directory)") }
let nginx = try NginxServer(root: directory)
func url(_ name: String) -> String {
    nginx.url("/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name))
}
func seconds(_ work: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await work()
    return (ContinuousClock.now - start) / .seconds(1)
}
/// Seconds per hit over `count` requests, timed off the main actor (so no actor hop per call).
func warmHits(_ pipeline: ImagePipeline, _ request: ImageRequest, count: Int) async throws -> Double {
    let start = ContinuousClock.now
    for _ in 0..<count { _ = try await pipeline.image(for: request) }
    return (ContinuousClock.now - start) / .seconds(1) / Double(count)
}
/// Seconds per synchronous cache lookup (`cachedImage(for:)`, no async call at all).
func lookups(_ pipeline: ImagePipeline, _ request: ImageRequest, count: Int) -> Double {
    let start = ContinuousClock.now
    var found = 0
    for _ in 0..<count where pipeline.cachedImage(for: request) != nil { found += 1 }
    precondition(found == count)
    return (ContinuousClock.now - start) / .seconds(1) / Double(count)
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func format(_ s: Double) -> String { s >= 0.001 ? String(format: "%.1f ms", s * 1000) : String(format: "%.2f µs", s * 1e6) }

var configuration = ImagePipeline.Configuration()
configuration.transfer.retry.maxAttempts = 1
let pipeline = ImagePipeline(configuration: configuration)
let sample = Array(names.prefix(photoLimit))
print("photos: \(sample.count) of \(names.count) in \(directory), size \(size), \(configuration.workers) workers, nginx on 127.0.0.1")

// Cold, then warm, per photo. Warm is timed over many hits to see below the clock's resolution.
var cold: [Double] = [], warm: [Double] = [], lookup: [Double] = []
var pixels = 0
let hits = 20_000
for name in sample {
    var bitmap: Bitmap?
    cold.append(try await seconds { bitmap = try await pipeline.image(url: url(name), size: .longestEdge(size)) })
    pixels += bitmap!.width * bitmap!.height
    let request = ImageRequest(url: url(name), size: .longestEdge(size))
    warm.append(try await warmHits(pipeline, request, count: hits))
    lookup.append(lookups(pipeline, request, count: hits))
}
let stats = pipeline.statistics
print("cold request (download + decode + scale): median \(format(median(cold))), min \(format(cold.min()!)), max \(format(cold.max()!))")
print("warm request (cache hit):                  median \(format(median(warm))), min \(format(warm.min()!)), max \(format(warm.max()!))")
print("cachedImage(for:) lookup (synchronous):    median \(format(median(lookup))), min \(format(lookup.min()!)), max \(format(lookup.max()!))")
print("  downloads \(stats.downloads), decodes \(stats.decodes), cache hits \(stats.cacheHits) for \(sample.count) photos x (1 + \(hits)) requests")

// N concurrent requests for one uncached photo: coalesced in one pipeline, then N pipelines.
let target = names[names.count / 2]
let targetURL = url(target)
let fresh = ImagePipeline(configuration: configuration)
let coalescedTime = try await seconds {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<concurrent {
            group.addTask { [fresh, targetURL, size] in _ = try await fresh.image(url: targetURL, size: .longestEdge(size)) }
        }
        try await group.waitForAll()
    }
}
let c = fresh.statistics
print("\(concurrent) concurrent requests, one pipeline (coalesced): \(format(coalescedTime)) wall, downloads \(c.downloads), decodes \(c.decodes), coalesced \(c.coalesced)")
let separate = (0..<concurrent).map { _ in ImagePipeline(configuration: configuration) }
let separateTime = try await seconds {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for p in separate {
            group.addTask { [targetURL, size] in _ = try await p.image(url: targetURL, size: .longestEdge(size)) }
        }
        try await group.waitForAll()
    }
}
let downloads = separate.map(\.statistics.downloads).reduce(0, +), decodes = separate.map(\.statistics.decodes).reduce(0, +)
print("\(concurrent) concurrent requests, \(concurrent) pipelines (no coalescing): \(format(separateTime)) wall, downloads \(downloads), decodes \(decodes)")
print(String(format: "coalescing: %.1fx less wall time for %@", separateTime / coalescedTime, target))
nginx.stop()
