import Foundation

/// Whether the tests run under a sanitizer: Scripts/check-sanitizers sets FETCH_GALLERY_SANITIZER
/// (address or thread) for every test process.
public enum Sanitizer {
    /// True under ASan or TSan, where instrumented code runs several times slower.
    public static let active = ProcessInfo.processInfo.environment["FETCH_GALLERY_SANITIZER"] != nil

    /// A wall-clock bound in seconds: `seconds` normally, 2.5 times that under a sanitizer.
    ///
    /// Only for a bound that proves something was cut short (a stall, a deadline), and only where the
    /// widened bound stays below what the server would otherwise hold the client for, so the check
    /// still proves the cut under a sanitizer; the caller says what that is.
    public static func bound(_ seconds: Double, below serverHold: Double) -> Double {
        let widened = seconds * 2.5
        precondition(!active || widened < serverHold, "a \(widened) s bound would not prove a \(serverHold) s hold was cut")
        return active ? widened : seconds
    }
}
