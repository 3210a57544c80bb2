import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// Names straight from a hostile server go all the way through a run: every file stays inside the
/// gallery folder with a short name, and no HTML written carries a live `<script`.
@Suite struct PipelineHostileNameTests {
    static let names = [
        "<script>alert(1)</script>",
        "../../etc/passwd",
        "nul\u{0}byte\u{0}name",
        "\u{202E}gpj.exe\u{202C} rtl override",
        String(repeating: "long", count: 1_250),  // 5,000 characters
        String(repeating: "<script>", count: 625),  // 5,000 characters of tags
    ]

    @Test func hostileNamesStayInsideTheFolderAndOutOfTheHTML() async throws {
        let photos = Self.names.enumerated().map { index, name in
            var photo = FakePhoto(id: 100 + index, name: name, corpusFile: "png-suite/basn2c08.png")
            photo.username = name
            return photo
        }
        let api = try FakeAPI([photos])
        let dir = try TempDirectory()
        let folder = dir.file("gallery")

        let summary = try await PipelineKit.run(PipelineKit.job(api, folder: folder, pages: 1, sizes: [64]))

        let failures = (try? PipelineKit.manifest(folder).photos.compactMap(\.error)) ?? []
        #expect(summary.photosOK == photos.count && summary.photosFailed == 0,
                "\(failures.map { String($0.prefix(160)) })")
        // Nothing escaped: the temp folder holds only the gallery.
        let outside = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(outside == ["gallery"], "\(outside)")
        let files = PipelineKit.files(folder)
        let rootGallery = URL(fileURLWithPath: folder).standardizedFileURL.path
        for file in files {
            let resolved = URL(fileURLWithPath: folder + "/" + file).resolvingSymlinksInPath().standardizedFileURL.path
            #expect(resolved.hasPrefix(rootGallery + "/"), "\(file)")
            for component in file.split(separator: "/") {
                #expect(component.utf8.count <= 255 && component != "..", "\(component)")
                #expect(!component.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, "\(component)")
            }
        }
        let html = files.filter { $0.hasSuffix(".html") }
        #expect(html.count == photos.count + 1)
        for page in html {
            let text = try String(contentsOfFile: folder + "/" + page, encoding: .utf8).lowercased()
            #expect(!GalleryWriterTests.withoutViewerScript(text).contains("<script"), "\(page) has a script tag")
            #expect(!text.contains("\u{0}"), "\(page) has a NUL")
        }
        // The manifest keeps the names exactly as the server sent them (JSON escapes them).
        let names = Set(try PipelineKit.manifest(folder).photos.map(\.name))
        #expect(names == Set(Self.names), "the manifest changed a name")
    }
}
