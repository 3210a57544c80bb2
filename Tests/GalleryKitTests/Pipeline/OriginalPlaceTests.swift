import Testing
@testable import GalleryKit
@testable import PhotoGallery
import GalleryTestSupport

/// The name an original's bytes call for: the extension follows the format, the folder stays the original's.
@Suite struct OriginalPlaceTests {
    static func place(_ path: String) -> OriginalPlace {
        OriginalPlace(folder: "/g", path: path, stored: false, staging: nil, id: 1234, name: "Sunset at sea")
    }

    static func fixed(_ path: String, _ corpusFile: String) throws -> String {
        let bytes = try Corpus.bytes(corpusFile)
        return bytes.withUnsafeBytes { place(path).fixedPath($0) }
    }

    @Test func aPNGServedAsJPEGIsNamedPNGInItsOwnFolder() throws {
        let jpgPath = GalleryNaming.originalPath(id: 1234, name: "Sunset at sea", extension: "jpg")
        let pngPath = GalleryNaming.originalPath(id: 1234, name: "Sunset at sea", extension: "png")
        #expect(try Self.fixed(jpgPath, "png-suite/basn2c08.png") == pngPath)
        // A gallery made before the fan-out keeps its folder.
        let legacy = GalleryNaming.legacyOriginalPath(id: 1234, name: "Sunset at sea", extension: "jpg")
        #expect(try Self.fixed(legacy, "png-suite/basn2c08.png")
            == GalleryNaming.legacyOriginalPath(id: 1234, name: "Sunset at sea", extension: "png"))
    }

    @Test func aNameThatAlreadyFitsIsKept() throws {
        let jpgPath = GalleryNaming.originalPath(id: 1234, name: "Sunset at sea", extension: "jpg")
        #expect(try Self.fixed(jpgPath, "libjpeg-turbo/testorig.jpg") == jpgPath)
        // ".jpeg" and upper case are a JPEG's names too.
        let jpeg = "photos/234/1234-sunset-at-sea.JPEG"
        #expect(try Self.fixed(jpeg, "libjpeg-turbo/testorig.jpg") == jpeg)
        // Bytes that are no image format we decode leave the name as it is.
        #expect([UInt8]("not an image".utf8).withUnsafeBytes { Self.place(jpeg).fixedPath($0) } == jpeg)
    }
}
