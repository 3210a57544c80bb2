import Foundation
import GallerySystem

/// The source photographs every demo image is derived from: the files in one folder, sorted by
/// name so recipe `sourceIndex` values mean the same file everywhere.
public struct DemoSourcePhotos: Sendable {
    /// The folder they were read from.
    public let directory: URL
    /// Full paths, sorted by file name.
    public let files: [URL]
    /// A stable hash of the names and sizes; part of the cache folder name so that changing the
    /// sources never serves stale derived images.
    public let fingerprint: UInt64

    static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    /// Reads the list of photos in `directory` (not their pixels).
    public init(directory: URL) throws(DemoError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .noSourcePhotos(directory: directory.path)
        }
        let photos = names.filter { Self.extensions.contains(PathText.fileExtension($0).lowercased()) }.sorted()
        guard !photos.isEmpty else { throw .noSourcePhotos(directory: directory.path) }
        var hash = FNV1a()
        for name in photos {
            hash.combine(name)
            let size = (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path))?[.size]
            hash.combine((size as? NSNumber)?.intValue ?? 0)
        }
        self.directory = directory
        self.files = photos.map { directory.appendingPathComponent($0) }
        self.fingerprint = hash.value
    }

    /// The photos shipped inside the binary's resource bundle (`Resources/demo-photos`), or the
    /// folder named by `FETCH_GALLERY_DEMO_PHOTOS` when that is set (for binaries copied without
    /// their resource bundle).
    public static func bundled() throws(DemoError) -> DemoSourcePhotos {
        if let override = ProcessInfo.processInfo.environment["FETCH_GALLERY_DEMO_PHOTOS"], !override.isEmpty {
            return try DemoSourcePhotos(directory: URL(fileURLWithPath: override))
        }
        guard let url = Bundle.module.url(forResource: "demo-photos", withExtension: nil) else {
            throw .noSourcePhotos(directory: Bundle.module.bundlePath + "/demo-photos")
        }
        return try DemoSourcePhotos(directory: url)
    }

    /// The source a recipe points at.
    func file(for recipe: DerivationRecipe) -> URL {
        files[recipe.sourceIndex % files.count]
    }
}
