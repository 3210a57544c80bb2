import Foundation
import GalleryKit
import GallerySystem

/// Turns a URL's source into a pipeline source, refusing what the service must not read:
/// `local://` paths that leave `--root` (`..`, symlinks included), hosts off the allow-list,
/// schemes other than http, https and local.
struct SourceResolver: Sendable {
    var root: String?
    var allowedHosts: [String]
    var maxSourceBytes: Int64

    func resolve(_ source: String) throws(ServeError) -> ImageRequest.Source {
        if source.hasPrefix("local://") { return .file(try localPath(String(source.dropFirst("local://".count)), source: source)) }
        guard source.hasPrefix("http://") || source.hasPrefix("https://") else {
            throw .badRequest("source \(source): only http://, https:// and local:// sources are served")
        }
        guard let host = URLComponents(string: source)?.host?.lowercased(), !host.isEmpty else {
            throw .badRequest("source \(source) is not a valid URL")
        }
        if !allowedHosts.isEmpty, !allowedHosts.contains(where: { Self.matches(host, $0.lowercased()) }) {
            throw .forbidden("source \(source): host \(host) is not on the allow-list (--allow-host)")
        }
        return .url(source)
    }

    /// `example.com` matches itself; `.example.com` matches it and every subdomain.
    static func matches(_ host: String, _ pattern: String) -> Bool {
        if pattern.hasPrefix(".") { return host == pattern.dropFirst() || host.hasSuffix(pattern) }
        return host == pattern
    }

    private func localPath(_ path: String, source: String) throws(ServeError) -> String {
        guard let root else { throw .forbidden("source \(source): local:// sources need --root") }
        guard let realRoot = Syscall.resolvedPath(root) else { throw ServeError(status: 500, "--root \(root) does not exist") }
        let joined = realRoot + "/" + path.drop(while: { $0 == "/" })
        // The real path, every symlink followed: it must still lie under the root.
        guard let real = Syscall.resolvedPath(joined) else { throw .notFound("source \(source): no such file under the root") }
        guard real.hasPrefix(realRoot.hasSuffix("/") ? realRoot : realRoot + "/") else {
            throw .forbidden("source \(source) leads outside the root")
        }
        guard let size = Syscall.fileSize(real) else { throw .notFound("source \(source) is not a regular file") }
        guard size <= maxSourceBytes else {
            throw ServeError(status: 413, "source \(source) is \(size) bytes, over the \(maxSourceBytes)-byte limit")
        }
        return real
    }
}
