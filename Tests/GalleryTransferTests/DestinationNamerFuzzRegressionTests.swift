import Foundation
import Testing
@testable import GalleryTransfer

/// URL lists the `naming` fuzz target (Fuzz/naming.swift) found, one URL per line, named in order
/// with the invariants the harness checks.
@Suite("Destination names: fuzz regressions")
struct DestinationNamerFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz-regressions/naming")
    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".urls") }.sorted()
    }

    @Test func regressionFilesExist() {
        #expect(!Self.files.isEmpty)
    }

    @Test(arguments: files)
    func namesStaySafe(_ file: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(file))
        var namer = DestinationNamer()
        var seen = Set<String>()
        for url in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
            let name = namer.name(for: String(url))
            #expect(!name.isEmpty && name != "." && name != "..")
            #expect(!name.hasPrefix("."), "hidden name \(name)")
            #expect(!name.utf8.contains(0x2F) && !name.utf8.contains(0) && !name.utf8.contains(0x5C))
            #expect((name + ".part.meta").utf8.count <= 255)
            #expect(!name.hasSuffix(".part") && !name.hasSuffix(".part.meta") && !name.hasSuffix(".tmp"))
            #expect(seen.insert(name).inserted)
        }
    }

    @Test func cutFromTheFrontNeverLeavesAHiddenName() {
        var namer = DestinationNamer()
        let name = namer.name(for: "http://127.0.0.1/" + String(repeating: "a", count: 10) + "." + String(repeating: "b", count: 199))
        #expect(name.utf8.count <= 200 && !name.hasPrefix("."))
    }
}
