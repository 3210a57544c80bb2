import Foundation

/// Which transfer loop runs an attempt.
///
/// The engine runs `TransferConfiguration.transferLoops` loops, each a libcurl multi handle on a thread
/// of its own, so that the per-transfer work of libcurl and the kernel's sockets is not one thread's for
/// the whole process. The admission gate, the per-host limit and `--rate` stay one for all of them.
/// An attempt's loop follows from its host and its admission slot:
/// - plain http: slot `s` of a host goes to loop `(h + s) mod L` (`h` from the host's name), always the
///   same, so a loop keeps open no more connections to a host than it holds slots of that host, and the
///   loops together no more than the per-host limit;
/// - https: every slot of a host goes to loop `h`, so that HTTP/2 can carry all of them as streams of one
///   connection (its TLS work then stays on one loop).
struct Lane: Sendable, Equatable {
    /// Index into the engine's loops.
    var loop: Int

    /// The lane of a transfer to `host` (the admission key) at `url`, holding admission slot `slot`.
    static func of(host: String, url: String, slot: Int, loops: Int) -> Lane {
        guard loops > 1 else { return Lane(loop: 0) }
        let home = Int(UInt(bitPattern: host.hashValue) % UInt(loops))
        if URLParts(url)?.scheme == "https" { return Lane(loop: home) }
        return Lane(loop: (home + slot) % loops)
    }
}

extension TransferEngine {
    /// The lane for an attempt (see ``Lane``).
    func lane(host: String, url: String, slot: Int) -> Lane {
        Lane.of(host: host, url: url, slot: slot, loops: loops.count)
    }

    /// Transfers each loop was handed so far (for tests and the benchmark's view of the spread).
    var transfersPerLoop: [Int] { loops.map(\.submitted) }
}
