import Foundation
import GalleryTestSupport
import Testing

/// TempDirectory, Corpus and TestPhotos.
@Suite struct SupportFilesTests {
    @Test func tempDirectoryIsRemovedWhenReleased() throws {
        var path = ""
        do {
            let folder = try TempDirectory(prefix: "selftest")
            path = folder.path
            let written = try folder.write([1, 2, 3], to: "a/b/c.bin")
            #expect(written == folder.file("a/b/c.bin"))
            #expect(try folder.read("a/b/c.bin") == [1, 2, 3])
            #expect(FileManager.default.fileExists(atPath: path))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func corpusIsTheRepositorysOwn() throws {
        #expect(Corpus.root.hasSuffix("/Tests/Corpus"))
        #expect(!Corpus.root.contains("shared/"))
        #expect(FileManager.default.fileExists(atPath: Corpus.root + "/README.md"))
        #expect(FileManager.default.fileExists(atPath: Corpus.root + "/expected.tsv"))
    }

    @Test func corpusMissingFileIsATypedError() throws {
        #expect(throws: TestSupportError.self) { try Corpus.bytes("no/such/file.jpg") }
        let error = #expect(throws: TestSupportError.self) { try Corpus.path("no/such/file.jpg") }
        #expect(error?.description.contains("no/such/file.jpg") == true)
    }

    @Test func expectationsMatchTheReadme() throws {
        let rows = Corpus.entries
        // 280 rows (41 errors) up to webp/ and gif/; heif/ adds 18 (4 refused), avif-link-u/ 6.
        #expect(rows.count == 304)
        #expect(rows.filter { $0.expect == "error" }.count == 45)
        let six = try #require(rows.first { $0.file == "exif-orientation/Landscape_6.jpg" })
        #expect(six.expect == "ok")
        #expect(six.exifOrientation == 6)
        #expect(six.width == 1200 && six.height == 1800)
    }

    @Test func cameraPhotosAreJPEGsWithTheirExpectedSizes() throws {
        let photos = try TestPhotos.cameraPhotos()
        #expect(photos.count == 18)
        for photo in photos {
            #expect(Array(photo.bytes.prefix(3)) == [0xFF, 0xD8, 0xFF], "\(photo.name)")
            #expect(Array(photo.bytes.suffix(2)) == [0xFF, 0xD9], "\(photo.name)")
        }
        #expect(photos[6].name == "Landscape_6.jpg")
    }

    @Test func galleryCyclesDeterministically() throws {
        let first = try TestPhotos.gallery(count: 30)
        let second = try TestPhotos.gallery(count: 30)
        #expect(first.map(\.name) == second.map(\.name))
        #expect(first.map(\.photo) == second.map(\.photo))
        #expect(first[0].name == "photo-001.jpg")
        #expect(first[4].name == "photo-005.png")
        #expect(Set(first.map(\.name)).count == 30)
        let folder = try TempDirectory()
        let names = try TestPhotos.writeGallery(count: 3, to: folder, subfolder: "g")
        #expect(try folder.read(names[2]) == first[2].photo.bytes)
    }

    @Test func patternBytesAreSeeded() {
        #expect(TestPhotos.patternBytes(100) == TestPhotos.patternBytes(100))
        #expect(TestPhotos.patternBytes(100, seed: 1) != TestPhotos.patternBytes(100, seed: 2))
        #expect(Set(TestPhotos.patternBytes(10_000)).count > 200)
    }
}
