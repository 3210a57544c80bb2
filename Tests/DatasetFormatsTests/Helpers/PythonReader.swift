import Foundation
import Testing

/// Runs Readers/read_shard.py (the readers dataset users run: webdataset, pyarrow, fastparquet, duckdb,
/// datasets, tfrecord) and returns the JSON it prints. A missing reader module fails the test, naming the
/// pip package (Scripts/bootstrap installs them).
enum PythonReader {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Readers/read_shard.py").path

    static func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HF_DATASETS_OFFLINE"] = "1"
        environment["HF_HUB_OFFLINE"] = "1"
        environment["PYTHONWARNINGS"] = "ignore"
        environment["NO_ALBUMENTATIONS_UPDATE"] = "1"
        process.environment = environment
        // stderr goes to a file, so only one pipe is read and neither can fill up and stall the reader.
        let errorPath = NSTemporaryDirectory() + "read_shard-\(UUID().uuidString).stderr"
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        let text = String(decoding: stdout, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            Issue.record("read_shard.py \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(text)\n\(stderr.suffix(3000))",
                         sourceLocation: sourceLocation)
            throw ReaderFailed()
        }
        let lastLine = text.split(separator: "\n").last.map(String.init) ?? ""
        guard let object = try JSONSerialization.jsonObject(with: Data(lastLine.utf8)) as? [String: Any] else {
            Issue.record("read_shard.py printed no JSON object: \(text.prefix(2000))", sourceLocation: sourceLocation)
            throw ReaderFailed()
        }
        return object
    }

    struct ReaderFailed: Error {}
}

/// A fresh folder under the temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init(_ label: String = "dataset-formats") throws {
        path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
    func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}

/// Values as the reader script prints them, for comparing through one serializer: binary as length and
/// zlib's CRC-32, null as NSNull.
enum Canonical {
    static func binary(_ bytes: [UInt8]) -> [String: Any] { ["len": bytes.count, "crc32": Int(crc32(bytes))] }

    /// zlib's CRC-32 (IEEE, reflected 0xEDB88320), to name binary values without shipping them through JSON.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// One JSON text for `value`, keys sorted, so a Swift expectation and a Python result compare as text.
    static func text(_ value: Any?) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [value ?? NSNull()], options: [.sortedKeys, .fragmentsAllowed])
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "<not JSON: \(String(describing: value))>"
    }
}
