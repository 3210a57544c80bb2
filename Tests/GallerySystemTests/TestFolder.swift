import Foundation

/// A fresh folder under the temporary directory, removed when dropped.
final class TestFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "gallery-system-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: file(name)))
    }

    func read(_ name: String) -> [UInt8]? { FileManager.default.contents(atPath: file(name)).map(Array.init) }

    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    static func bytes(_ count: Int, seed: UInt8) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed } }
}
