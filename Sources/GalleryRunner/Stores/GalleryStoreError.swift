/// Why a store could not be opened, or a step of a command's lifecycle failed (see ``GalleryStore``),
/// with how the command ends for it. The store's own error is in the sentence.
public enum GalleryStoreError: GalleryEnding, Sendable, Equatable, CustomStringConvertible {
    /// The location or the settings cannot make a store: a malformed location or endpoint, no
    /// credentials, a work folder that cannot be made.
    case settings(String)
    /// The store cannot be used: it does not answer, refuses the keys, has no such bucket, or lacks
    /// what the command reads (the plan, a shard's part cut short).
    case unavailable(String)
    /// A finished file could not be stored while the store otherwise worked.
    case failed(String)

    public var description: String {
        switch self {
        case let .settings(text), let .unavailable(text), let .failed(text): text
        }
    }

    public var outcome: GalleryOutcome {
        switch self {
        case .settings: .usage
        case .unavailable: .unreadable
        case .failed: .failures
        }
    }

    public var message: String? { description }
}
