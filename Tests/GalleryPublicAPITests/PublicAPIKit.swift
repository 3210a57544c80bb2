import Foundation
import GalleryKit
import GalleryTestSupport
import GallerySync

/// Shared helpers. Everything here uses public API only: this target imports the libraries
/// without `@testable`, as a user's program would.
enum APIKit {
    /// A camera photo stored 1200x1800 with EXIF orientation 6: upright it is 1800x1200.
    static let rotatedPhoto = "exif-orientation/Landscape_6.jpg"
    /// The same scene stored upright, 1800x1200.
    static let uprightPhoto = "exif-orientation/Landscape_1.jpg"
    /// A JPEG with a valid signature whose Huffman tables are broken.
    static let corruptJPEG = "jpeg-corrupt/derive-huffman-codes-overflow.jpg"

    /// A pipeline of its own (own cache, engine and threads), quick to give up on dead servers.
    static func pipeline(store: String? = nil, observers: [any TransferObserver] = [],
                         configure: (inout ImagePipeline.Configuration) -> Void = { _ in }) -> ImagePipeline {
        var configuration = ImagePipeline.Configuration()
        configuration.cacheCostLimit = 64 << 20
        configuration.originalsFolder = store
        configuration.workers = 2
        configuration.observers = observers
        configuration.transfer.retry.maxAttempts = 1
        configuration.transfer.connectTimeout = 5
        configuration.transfer.deadline = 60
        configure(&configuration)
        return ImagePipeline(configuration: configuration)
    }

    /// A fault server serving `bytes` as a JPEG with an ETag on `path`.
    static func server(serving bytes: [UInt8], at path: String = "/photo.jpg") throws -> FaultServer {
        let server = try FaultServer()
        server.route(path) { _, _ in .file(bytes, etag: "\"v1\"", contentType: "image/jpeg") }
        return server
    }

    /// Waits (polling) until `condition` holds or `seconds` pass; returns whether it held.
    static func eventually(within seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}

/// Records every pipeline event and transfer start, through the observer protocols.
final class EventLog: ImagePipelineObserver {
    private let events = Locked<[String]>([])

    func pipeline(_ event: ImagePipelineEvent) {
        let text: String
        switch event {
        case .cacheHit: text = "hit"
        case .coalesced: text = "coalesced"
        case .downloaded: text = "downloaded"
        case .readFromStore: text = "store"
        case .decoded: text = "decoded"
        case .failed: text = "failed"
        }
        events.withLock { $0.append(text) }
    }

    func transferDidStart(id: TransferID, url: String) {
        events.withLock { $0.append("transfer-start") }
    }

    var all: [String] { events.withLock { $0 } }
    func count(_ name: String) -> Int { all.filter { $0 == name }.count }
}

/// Collects per-request progress values.
final class ProgressLog: Sendable {
    private let values = Locked<[ImageProgress]>([])
    func record(_ progress: ImageProgress) { values.withLock { $0.append(progress) } }
    var all: [ImageProgress] { values.withLock { $0 } }
}
