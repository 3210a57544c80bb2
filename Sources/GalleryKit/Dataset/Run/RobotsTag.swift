import Foundation
import GalleryTransfer

/// img2dataset's X-Robots-Tag opt-out check (downloader.py `is_disallowed`), applied to the response headers
/// before the body is read: each X-Robots-Tag value is split once at `:`; a left part is a user-agent token,
/// honoured only when it equals ours (lower-cased); the directives are comma-separated, trimmed, lower-cased.
public struct RobotsTagPolicy: Sendable, Equatable {
    /// The directives that refuse an image (lower-cased); empty: the check is off.
    public var disallowed: Set<String>
    /// Our user-agent token (`--user-agent-token`), lower-cased.
    public var userAgentToken: String?

    public static let defaultDirectives = ["noai", "noimageai", "noindex", "noimageindex"]
    /// img2dataset's message, which users count in their stats.
    public static let message = "Use of image disallowed by X-Robots-Tag directive"

    public init(disallowed: [String] = RobotsTagPolicy.defaultDirectives, userAgentToken: String? = nil) {
        self.disallowed = Set(disallowed.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
        self.userAgentToken = userAgentToken.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    public func isDisallowed(_ headers: HTTPHeaders) -> Bool {
        guard !disallowed.isEmpty else { return false }
        for field in headers where field.name.equalsIgnoringCase("X-Robots-Tag") {
            let parts = field.value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let directives = parts.last!.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            let token = parts.count == 2 ? parts[0].lowercased() : nil
            if (token == nil || token == userAgentToken), directives.contains(where: disallowed.contains) { return true }
        }
        return false
    }
}

private extension String {
    func equalsIgnoringCase(_ other: String) -> Bool { lowercased() == other.lowercased() }
}
