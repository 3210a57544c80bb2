import Foundation

/// Deterministic, real-looking files to download: real JPEGs and PNGs from the corpus (camera
/// photos with EXIF orientation, libjpeg-turbo's test images, PngSuite), plus seeded
/// pseudo-random bytes for transfers whose content does not matter.
public enum TestPhotos {
    /// A named file and its bytes.
    public struct Photo: Sendable, Equatable {
        /// The corpus-relative path it came from (or a made-up name for synthetic bytes).
        public let source: String
        public let bytes: [UInt8]

        /// The last path component, e.g. `Landscape_6.jpg`.
        public var name: String { (source as NSString).lastPathComponent }
    }

    /// The camera photos (about 350 kB each, 1800x1200 or 1200x1800): EXIF orientations 0...8.
    public static let cameraPhotoNames: [String] =
        (0...8).map { "exif-orientation/Landscape_\($0).jpg" } + (0...8).map { "exif-orientation/Portrait_\($0).jpg" }

    /// Small, well-known decodable images of both formats.
    public static let smallImageNames = [
        "libjpeg-turbo/testorig.jpg", "libjpeg-turbo/testimgint.jpg", "derived/testorig-progressive.jpg",
        "derived/testorig-grayscale.jpg", "png-suite/basn2c08.png", "png-suite/basn6a08.png",
        "png-suite/basn0g08.png", "png-suite/basi3p08.png",
    ]

    /// Loads one corpus file.
    public static func photo(_ relative: String, filePath: String = #filePath) throws(TestSupportError) -> Photo {
        Photo(source: relative, bytes: try Corpus.bytes(relative, filePath: filePath))
    }

    /// The 18 camera photos, in a fixed order.
    public static func cameraPhotos(filePath: String = #filePath) throws(TestSupportError) -> [Photo] {
        var photos: [Photo] = []
        for name in cameraPhotoNames { photos.append(try photo(name, filePath: filePath)) }
        return photos
    }

    /// The small images, in a fixed order.
    public static func smallImages(filePath: String = #filePath) throws(TestSupportError) -> [Photo] {
        var photos: [Photo] = []
        for name in smallImageNames { photos.append(try photo(name, filePath: filePath)) }
        return photos
    }

    /// `count` photos cycling through the small images then the camera photos, named
    /// `photo-001.jpg`, `photo-002.png`, ... (the extension follows the content) so a gallery
    /// of any size can be served.
    public static func gallery(count: Int, filePath: String = #filePath) throws(TestSupportError) -> [(name: String, photo: Photo)] {
        let pool = try smallImages(filePath: filePath) + cameraPhotos(filePath: filePath)
        return (0..<count).map { index in
            let photo = pool[index % pool.count]
            let ext = (photo.source as NSString).pathExtension
            return (name: String(format: "photo-%03d.%@", index + 1, ext), photo: photo)
        }
    }

    /// Writes `gallery(count:)` into `folder` (e.g. an nginx root); returns the names written.
    @discardableResult
    public static func writeGallery(count: Int, to folder: TempDirectory, subfolder: String = "",
                                    filePath: String = #filePath) throws -> [String] {
        let prefix = subfolder.isEmpty ? "" : subfolder + "/"
        return try gallery(count: count, filePath: filePath).map { entry in
            try folder.write(entry.photo.bytes, to: prefix + entry.name)
            return prefix + entry.name
        }
    }

    /// `count` seeded pseudo-random bytes (a 64-bit LCG): the same seed always gives the same
    /// bytes, and a wrong offset in a resumed download shows up as a mismatch.
    public static func patternBytes(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[index] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
        return bytes
    }
}
