import GalleryImaging
import GalleryTestSupport
import Testing

/// One case per row of Tests/Corpus/expected.tsv.
@Suite("Decoding conformance (expected.tsv)")
struct DecodingConformanceTests {
    static let okRows = Corpus.entries.filter { $0.expect == "ok" }
    static let errorRows = Corpus.entries.filter { $0.expect == "error" }
    static let eitherRows = Corpus.entries.filter { $0.expect == "either" }
    static let exifRows = Corpus.entries.filter { $0.exifOrientation != nil && $0.expect == "ok" }

    /// The parameterised tests below run one case per row: an unreadable expected.tsv would leave
    /// them with no cases at all, so its presence and every listed file are checked here.
    @Test func corpusIsPresent() throws {
        #expect(Corpus.entries.count == 304, "expected.tsv under \(Corpus.root)")
        for row in Corpus.entries { _ = try Corpus.path(row.file) }
        #expect(Self.okRows.count == 254 && Self.errorRows.count == 45 && Self.eitherRows.count == 5)
    }

    @Test(arguments: okRows)
    func okRowDecodesAtFullSize(_ row: Corpus.Entry) throws {
        let image = try ImageDecoder.decode(Corpus.bytes(row.file), name: row.file)
        #expect(image.bitmap.width == row.width)
        #expect(image.bitmap.height == row.height)
        #expect(image.sourceWidth == row.width && image.sourceHeight == row.height)
        #expect(image.scaleDenominator == 1)
        #expect(image.format.rawValue == row.file.split(separator: ".").last.map { $0 == "jpg" ? "jpeg" : String($0) })
        // CMYK JPEGs are listed with 4 channels and decode to RGB.
        let isJPEG = row.file.hasSuffix(".jpg")
        let expected = isJPEG && row.channels == 4 ? 3 : row.channels
        #expect(image.bitmap.format.channels == expected)
    }

    @Test(arguments: errorRows)
    func errorRowIsRejected(_ row: Corpus.Entry) throws {
        let clock = ContinuousClock()
        let bytes = try Corpus.bytes(row.file)
        let elapsed = clock.measure {
            #expect(throws: DecodeError.self) { try ImageDecoder.decode(bytes, name: row.file) }
        }
        #expect(elapsed < .seconds(2), "rejecting \(row.file) took \(elapsed)")
    }

    /// Damaged files libjpeg only warns about: either outcome is fine, but a decode must have the
    /// right size and an error must be a DecodeError naming the file.
    @Test(arguments: eitherRows)
    func eitherRowDecodesOrFailsCleanly(_ row: Corpus.Entry) throws {
        do {
            let image = try ImageDecoder.decode(Corpus.bytes(row.file), name: row.file)
            if let width = row.width, let height = row.height {
                #expect(image.bitmap.width == width && image.bitmap.height == height)
            }
        } catch let error as DecodeError {
            #expect(error.name == row.file)
        }
    }

    @Test(arguments: exifRows)
    func exifOrientationMatches(_ row: Corpus.Entry) throws {
        let bytes = try Corpus.bytes(row.file)
        let expected = Orientation(exifValue: row.exifOrientation ?? 1)
        #expect(try ImageDecoder.probe(bytes, name: row.file).orientation == expected)
        let image = try ImageDecoder.decode(bytes, name: row.file, options: DecodeOptions(target: .longestEdge(64)))
        #expect(image.orientation == expected)
    }
}
