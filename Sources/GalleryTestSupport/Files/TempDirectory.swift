import Foundation

/// A fresh folder under the system temp directory, removed with everything in it when the
/// value is released (or on `remove()`), so tests leave nothing behind.
public final class TempDirectory: Sendable {
    /// Absolute path, no trailing slash.
    public let path: String

    /// Creates `<tmp>/<prefix>-<uuid>`.
    public init(prefix: String = "fetch-gallery-test") throws(TestSupportError) {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            ?? "/tmp"
        path = "\(base)/\(prefix)-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .system(operation: "mkdir \(path): \(error)", errno: errno)
        }
    }

    deinit { remove() }

    public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The path of `name` inside the folder (not created).
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Writes `bytes` to `name` (creating intermediate folders) and returns the file's path.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        let target = file(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Reads `name` back.
    public func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: file(name))))
    }

    /// Deletes the folder now. Safe to call twice.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
