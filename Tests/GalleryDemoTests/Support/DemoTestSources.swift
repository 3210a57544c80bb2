import Foundation
import GalleryTestSupport
@testable import GalleryDemo

/// Source photographs for the tests: a few real JPEGs of the repository's conformance corpus
/// (`Tests/Corpus`), so the tests do not depend on which demo photos are bundled.
enum DemoTestSources {
    /// A folder with three landscape/portrait photos (1800x1200 and 1200x1800, some with EXIF
    /// orientation), copied so the source set is exactly these.
    static func make(in folder: URL) throws -> DemoSourcePhotos {
        let sources = folder.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        for name in ["Landscape_1.jpg", "Portrait_1.jpg", "Landscape_6.jpg"] {
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: try Corpus.path("exif-orientation/\(name)")),
                to: sources.appendingPathComponent(name))
        }
        return try DemoSourcePhotos(directory: sources)
    }
}

struct DemoTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
