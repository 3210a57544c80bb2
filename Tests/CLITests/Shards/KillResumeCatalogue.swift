import Foundation
import GalleryTestSupport

/// The catalogue of the tests that kill a shard part-way and run it again (on Slurm, Ray, Spark): 4
/// pages of 2 real photographs, so shard 1 of 4 owns page 2 and its two photos. `serve` sets how the
/// photos are answered (as they are, trickled, stalled part-way) and is called again to change it mid-run.
struct KillResumeCatalogue {
    let api: GalleryCLIKit

    /// `photos`: the two corpus files of every page, in the order a page lists them.
    init(photos: [String]) throws {
        api = try GalleryCLIKit(pages: 4, perPage: 2, corpusFiles: photos)
    }

    /// `fetch-gallery run`'s arguments for this catalogue, thumbnails of 64 px, one decoding thread.
    var source: [String] { ["--api", api.server.baseURL, "--pages", "4", "--sizes", "64", "--workers", "1"] }

    /// The ids of shard 1's photos (page 2), in the order it lists them.
    var victims: [Int] { api.pages[1] }

    func path(_ id: Int) -> String { api.imagePath(id) }

    func size(_ id: Int) throws -> Int { try Corpus.bytes(api.files[id]!).count }

    /// Body bytes the server has sent for photo `id` so far, every request counted.
    func sent(_ id: Int) -> Int { api.server.bodyBytesSent(path: path(id)) }

    /// Routes every photo to its bytes (a `.file` answer: Range, If-Range and ETag honoured), shaped by
    /// `shape`, given the answer and the photo's id.
    func serve(_ shape: (FaultServer.Response, Int) -> FaultServer.Response = { response, _ in response }) throws {
        for (id, file) in api.files {
            let response = shape(.file(try Corpus.bytes(file), etag: "\"\(id)\"", contentType: "image/jpeg"), id)
            api.server.route(path(id)) { _, _ in response }
        }
    }

    /// The gallery one process makes of the catalogue into `out`, served as it is; fails the test if the run fails.
    func runOneProcess(_ arguments: [String] = [], out: String) throws {
        try serve()
        let one = try ProcessRunner.run(GalleryCLIKit.binary, ["run"] + source + arguments + ["--out", out, "--progress", "none"],
                                        timeout: 300)
        guard one.exitCode == 0 else { throw KillResumeCatalogueError(description: "the one-process run failed: \(one.stderrText)") }
    }
}

struct KillResumeCatalogueError: Error, CustomStringConvertible {
    let description: String
}
