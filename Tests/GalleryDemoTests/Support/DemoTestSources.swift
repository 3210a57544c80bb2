import Foundation
@testable import GalleryDemo

/// Source photographs for the tests: a few real JPEGs of the shared conformance corpus (found by
/// walking up from this file to a folder holding `shared/corpus`, or `FETCH_GALLERY_CORPUS`), so
/// the tests do not depend on which demo photos are bundled.
enum DemoTestSources {
    static let corpus: URL? = {
        if let path = ProcessInfo.processInfo.environment["FETCH_GALLERY_CORPUS"] {
            return URL(fileURLWithPath: path)
        }
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shared/corpus")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("expected.tsv").path) {
                return candidate
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()

    /// A folder with three landscape/portrait photos (1800x1200 and 1200x1800, some with EXIF
    /// orientation), copied so the source set is exactly these.
    static func make(in folder: URL) throws -> DemoSourcePhotos {
        guard let corpus else { throw DemoTestFailure("shared/corpus not found above \(#filePath)") }
        let sources = folder.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        for name in ["Landscape_1.jpg", "Portrait_1.jpg", "Landscape_6.jpg"] {
            try FileManager.default.copyItem(
                at: corpus.appendingPathComponent("exif-orientation/\(name)"),
                to: sources.appendingPathComponent(name))
        }
        return try DemoSourcePhotos(directory: sources)
    }
}

struct DemoTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
