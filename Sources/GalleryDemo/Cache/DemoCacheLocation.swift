import Foundation

/// Where derived demo images are kept between runs.
public enum DemoCacheLocation {
    /// Bumped whenever the derivation (crop, scale, encoder settings) changes, so old caches are
    /// never served as if they were current.
    public static let derivationVersion = 2

    /// `$XDG_CACHE_HOME/fetch-gallery`, else `~/.cache/fetch-gallery`, else the temporary folder.
    public static var defaultRoot: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("fetch-gallery")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/fetch-gallery")
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("fetch-gallery-cache")
    }

    /// The version-stamped folder for one set of sources, e.g. `demo-v1-3fa9c2d10b7e`.
    static func folder(root: URL, sources: DemoSourcePhotos) -> URL {
        let stamp = String(sources.fingerprint, radix: 16)
        return root.appendingPathComponent("demo-v\(derivationVersion)-\(stamp)")
    }
}
