import GalleryImaging
import GalleryTestSupport
import Testing

/// Files decoded through a read-only mapping give the same pixels as from an array, and every way a
/// file can be unusable is a typed error naming it.
@Suite("Decoding: mapped files")
struct DecodingMappedFileTests {
    @Test(arguments: ["libjpeg-turbo/testorig.jpg", "derived/testorig-progressive.jpg", "png-suite/basi6a16.png"])
    func mappedDecodeEqualsArrayDecode(file: String) throws {
        let path = try Corpus.path(file)
        let options = DecodeOptions(target: .longestEdge(40))
        let mapped = try ImageDecoder.decode(fileAt: path, options: options)
        let copied = try ImageDecoder.decode(try Corpus.bytes(file), name: path, options: options)
        #expect(mapped.bitmap == copied.bitmap)
        let map = try MappedFile(path: path)
        #expect(map.count == (try Corpus.bytes(file)).count)
        #expect(map.withUnsafeBytes { Array($0) } == (try Corpus.bytes(file)))
        #expect(try ImageDecoder.probe(fileAt: path).width == copied.sourceWidth)
    }

    @Test func anEmptyFileIsNoBytesAndATypedDecodeError() throws {
        let dir = try TempDirectory()
        let path = try dir.write([], to: "empty.jpg")
        #expect(try MappedFile(path: path).count == 0)
        #expect(try MappedFile(path: path).withUnsafeBytes { $0.count } == 0)
        let error = #expect(throws: DecodeError.self) { try ImageDecoder.decode(fileAt: path) }
        #expect(error?.name == path)
    }

    @Test func missingFilesAndFoldersAreIOErrorsNamingThePath() throws {
        let dir = try TempDirectory()
        for path in [dir.file("missing.jpg"), dir.path] {
            let error = #expect(throws: DecodeError.self) { try MappedFile(path: path) }
            guard case .io(let name, let reason)? = error else {
                Issue.record("expected .io, got \(String(describing: error))")
                continue
            }
            #expect(name == path)
            #expect(!reason.isEmpty)
        }
    }

    @Test func thumbnailerReadsThroughTheMapping() throws {
        let path = try Corpus.path("libjpeg-turbo/testorig.jpg")
        let fromFile = try Thumbnailer(longestEdge: 32).thumbnail(fileAt: path)
        let fromBytes = try Thumbnailer(longestEdge: 32).thumbnail(try Corpus.bytes("libjpeg-turbo/testorig.jpg"), name: path)
        #expect(fromFile == fromBytes)
    }
}
