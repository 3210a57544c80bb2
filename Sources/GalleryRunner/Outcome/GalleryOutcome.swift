/// How a command ended, with the exit status the tool documents for it: a library user (or the CLI)
/// takes the status from here instead of deciding it again.
public enum GalleryOutcome: Int32, Sendable, Hashable, CaseIterable {
    /// Every photo is in the gallery (the plan is written, the merge is whole).
    case done = 0
    /// Some photos or listing pages failed (they are in `gallery.json` with the reason), a shard is
    /// missing or unfinished, or a finished file could not be stored.
    case failures = 1
    /// A usage error: an option, a location or a setting that cannot work.
    case usage = 2
    /// The source could not be read at all, or the store refused the keys, is missing, or lacks what
    /// the command reads (the plan).
    case unreadable = 3
    /// Interrupted (Ctrl-C, SIGINT); what was done is kept and written.
    case interrupted = 130
    /// Stopped by SIGTERM (a scheduler ending the job); what was done is kept and written, as for Ctrl-C.
    case terminated = 143

    /// How a run stopped by `signal` ends (nil or any other signal: ``interrupted``).
    public static func stopped(by signal: Int32?) -> GalleryOutcome {
        signal == 15 ? .terminated : .interrupted
    }

    /// The process's exit status.
    public var exitStatus: Int32 { rawValue }
}

/// An error that says how the command it stops ends: its ``GalleryOutcome`` and, unless it was said
/// already, the line to print.
public protocol GalleryEnding: Error {
    /// How the command ends.
    var outcome: GalleryOutcome { get }
    /// One line saying why, for standard error; nil when there is nothing more to say (an interrupted
    /// run, failed photos already listed in the gallery's manifest).
    var message: String? { get }
}

/// A command that did not end ``GalleryOutcome/done``: its outcome and the line that says why.
public struct GalleryFailure: GalleryEnding, Sendable, Equatable, CustomStringConvertible {
    public var outcome: GalleryOutcome
    public var message: String?

    public init(_ outcome: GalleryOutcome, _ message: String? = nil) {
        self.outcome = outcome
        self.message = message
    }

    public var description: String { message ?? "exit status \(outcome.exitStatus)" }

    /// `text` as one printable line of at most `limit` characters: control and format characters
    /// (a server's newlines, escapes, bidirectional marks) become U+FFFD, so a message cannot forge
    /// terminal output.
    public static func oneLine(_ text: String, limit: Int = 200) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit).map {
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .format ? "\u{FFFD}" : $0
        }))
    }
}
