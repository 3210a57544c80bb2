import Foundation
@testable import GalleryKit

/// Strings a hostile or broken server might send, for every escaping and naming test.
enum Hostile {
    static let strings: [String] = [
        "<script>alert(1)</script>",
        "\"><script>alert(1)</script>",
        "' onmouseover='alert(1)",
        "</style><script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "<ScRiPt >alert(1)</sCrIpT>",
        "../../../etc/passwd",
        "..",
        "/",
        "nul\u{0}byte",
        "\u{202E}gpj.exe\u{202C} rtl override",
        "שלום עולם",
        "日本の夕日",
        "&lt;script&gt; already escaped",
        String(repeating: "é", count: 5_000),
        String(repeating: "<script>", count: 700),
        "",
        "   ",
        "emoji 🌅🏔️ sunset",
    ]
}

/// A fresh folder under the system temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init(_ name: String = #function) {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        path = NSTemporaryDirectory() + "gallerykit-\(safe)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: path + "/" + relative, encoding: .utf8)
    }

    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/" + relative)
    }

    /// Every file below the folder, relative paths.
    func files() -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { relative in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isDirectory)
            return exists && !isDirectory.boolValue
        }.sorted()
    }
}

let pageURL = URL(string: "http://127.0.0.1:8080/photos?feature=popular&page=1&rpp=50")!

func jsonData(_ text: String) -> Data { Data(text.utf8) }
