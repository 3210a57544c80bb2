import Foundation
import Testing
@testable import GalleryKit

/// The streamed writer gives the bytes the whole-value renderers give.
@Suite struct GalleryOutputTests {
    @Test func streamedManifestAndIndexEqualTheWholeRenderings() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        for state in [GalleryWriterTests.hostileState(), GalleryState()] {
            let folder = TemporaryFolder()
            defer { folder.remove() }
            try GalleryWriter(folder: folder.path, source: "http://127.0.0.1:8080/\"quoted\"").write(state, generated: date)
            let whole = try GalleryManifest(state: state, source: "http://127.0.0.1:8080/\"quoted\"", generated: date).encoded()
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/gallery.json")) == whole)
            #expect(try folder.read("index.html") == IndexPage(title: "Gallery", state: state).render())
            // Its working files are gone.
            #expect(folder.files().allSatisfy { !$0.hasPrefix(".fetch-gallery/") }, "\(folder.files())")
        }
    }

    @Test func unchangedIndexIsNotRewritten() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let state = GalleryWriterTests.hostileState()
        try GalleryWriter(folder: folder.path, source: "s").write(state)
        let before = try FileManager.default.attributesOfItem(atPath: folder.path + "/index.html")[.modificationDate] as? Date
        usleep(20_000)
        try GalleryWriter(folder: folder.path, source: "s").write(state)
        let after = try FileManager.default.attributesOfItem(atPath: folder.path + "/index.html")[.modificationDate] as? Date
        #expect(before == after && before != nil)
    }
}
