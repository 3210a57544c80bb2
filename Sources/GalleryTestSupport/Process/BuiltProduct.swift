import Foundation

/// Finds executables SwiftPM built alongside the tests (e.g. `fetch-gallery`), so CLI tests run
/// the real binary without hard-coded paths.
public enum BuiltProduct {
    /// Environment variable naming the binary explicitly (e.g. a release build to test).
    public static let environmentVariable = "FETCH_GALLERY_BINARY"

    /// The path of the built executable `name`: `$FETCH_GALLERY_BINARY` for `fetch-gallery` if
    /// set, else the file beside the running test bundle (`.build/<triple>/debug/`), else
    /// `.build/debug/<name>` under the package root found by walking up from `filePath`.
    public static func path(_ name: String = "fetch-gallery", filePath: String = #filePath) throws(TestSupportError) -> String {
        let environment = ProcessInfo.processInfo.environment
        if name == "fetch-gallery", let explicit = environment[environmentVariable], !explicit.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: explicit) else {
                throw .launchFailed(executable: explicit, reason: "\(environmentVariable) is not executable")
            }
            return explicit
        }
        var candidates: [String] = []
        // The test process is `.build/<triple>/debug/<package>PackageTests.xctest`.
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name).path)
        }
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                candidates.append(folder.appendingPathComponent(".build/debug/\(name)").path)
                break
            }
            folder = folder.deletingLastPathComponent()
        }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw .launchFailed(
            executable: name,
            reason: "not built; run `swift build` first (looked at \(candidates.joined(separator: ", ")))")
    }
}
