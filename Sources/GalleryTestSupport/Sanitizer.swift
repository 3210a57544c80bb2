import Foundation

/// Whether the tests run under a sanitizer: Scripts/check-sanitizers sets FETCH_GALLERY_SANITIZER
/// (address or thread) for every test process.
public enum Sanitizer {
    /// True under ASan or TSan, where instrumented code runs several times slower and the runtime's
    /// shadow memory adds tens of megabytes to every process.
    public static let active = ProcessInfo.processInfo.environment["FETCH_GALLERY_SANITIZER"] != nil

    /// A bound (seconds, KiB, ...): `value` normally, 2.5 times that under a sanitizer.
    ///
    /// Only for a bound that proves something was cut short (a stall, a deadline, a decompression bomb),
    /// and only where the widened bound stays below `limit`, what not cutting it would cost (the
    /// server's stall, the bomb's size), so the check still proves the cut under a sanitizer.
    public static func bound(_ value: Double, below limit: Double) -> Double {
        let widened = value * 2.5
        precondition(!active || widened < limit, "a bound of \(widened) would not prove that \(limit) was cut short")
        return active ? widened : value
    }
}
