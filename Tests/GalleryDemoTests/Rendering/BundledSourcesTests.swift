import Foundation
import GalleryImaging
import Testing
@testable import GalleryDemo

/// The photographs shipped as resources: present, licensed, decodable, big enough to crop from.
@Suite("Bundled demo source photos")
struct BundledSourcesTests {
    @Test func bundleHoldsDecodablePhotosWithLicences() throws {
        let sources = try DemoSourcePhotos.bundled()
        #expect(sources.files.count >= 8)
        let licences = try String(contentsOf: sources.directory.appendingPathComponent("LICENCES.md"), encoding: .utf8)
        for file in sources.files {
            #expect(licences.contains(file.lastPathComponent), "\(file.lastPathComponent) missing from LICENCES.md")
            let info = try ImageDecoder.probe(fileAt: file.path)
            #expect(info.width * info.height >= 1_000_000, "\(file.lastPathComponent) is \(info.width)x\(info.height)")
        }
    }
}
