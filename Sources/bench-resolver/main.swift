import Foundation
import GallerySystem
import GalleryTransfer
#if canImport(Glibc)
import Glibc
#endif

// The memory of the resolver's cache (Scripts/bench-web-cache builds this in release and runs it): one
// ForwardingResolver resolves NAMES distinct names (h0.SUFFIX, h1.SUFFIX, ...: 14 bytes at most with the
// default suffix, short enough for Swift's inline strings, the "short name" case of DNSCache's note) from a
// fast answerer on this machine (nsd with a wildcard: an A for each name, "no data" for its AAAA, so two
// cache entries a name), CONCURRENT lookups at a time, its pacing opened up (the answerer is local). Then
// it prints one line of figures, `key=value` separated by spaces:
//   names, entries (cached now), seconds, questions, failures (lookups that did not get their address),
//   rss and rss0 (the process's resident bytes now and before the first lookup, /proc/self/statm),
//   peak and peak0 (its peak RSS after and before, getrusage).
// --capacity N sets the cache's bound (default DNSCachePolicy's): a bound far above the names shows what
// the memory would do without one.
// --prefix P names them P0.SUFFIX, P1.SUFFIX, ... (default h); --default-pacing keeps DNSPacing's defaults (for a
// resolver that limits its rate, such as Scripts/bench-web-dns.py), and the line then also gives `decreases`
// (how often the pace was cut).
// Usage: bench-resolver --server 127.0.55.1[:PORT] --names N [--suffix web.zz] [--prefix h] [--concurrent 512]
//                       [--capacity N] [--default-pacing]
let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
guard let serverText = option("--server"), let server = DNSServer(serverText),
      let names = option("--names").flatMap(Int.init), names >= 0 else {
    FileHandle.standardError.write(Data("usage: bench-resolver --server HOST[:PORT] --names N [--suffix S] [--concurrent N]\n".utf8))
    exit(2)
}
let suffix = option("--suffix") ?? "web.zz"
let prefix = option("--prefix") ?? "h"
let concurrent = max(1, option("--concurrent").flatMap(Int.init) ?? 512)

func peakRSS() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}
func residentBytes() -> Int {
    let statm = (try? Syscall.readAll("/proc/self/statm")).flatMap { $0 } ?? []
    let fields = String(decoding: statm, as: UTF8.self).split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * sysconf(Int32(_SC_PAGESIZE)) : 0
}

var pacing = DNSPacing()
if !arguments.contains("--default-pacing") {
    pacing.maxInFlight = 256
    pacing.initialRate = 200_000
    pacing.maximumRate = 1_000_000
}
let resolver: ForwardingResolver
var policy = DNSCachePolicy()
if let capacity = option("--capacity").flatMap(Int.init) { policy.capacity = capacity }
do { resolver = try ForwardingResolver(servers: [server], policy: policy, pacing: pacing) } catch {
    FileHandle.standardError.write(Data("bench-resolver: \(error)\n".utf8))
    exit(1)
}
let rss0 = residentBytes(), peak0 = peakRSS()
let start = ContinuousClock.now
let failures = await withTaskGroup(of: Bool.self) { group in
    var next = 0, failed = 0
    func add() {
        let name = "\(prefix)\(next).\(suffix)"
        next += 1
        group.addTask {
            if case .success = await resolver.resolve(name) { return true }
            return false
        }
    }
    while next < min(concurrent, names) { add() }
    for await ok in group {
        if !ok { failed += 1 }
        if next < names { add() }
    }
    return failed
}
let seconds = (ContinuousClock.now - start) / .seconds(1)
let stats = resolver.statistics
print("names=\(names) entries=\(stats.cached) seconds=\(String(format: "%.1f", seconds)) questions=\(stats.questions) "
      + "failures=\(failures) rss=\(residentBytes()) rss0=\(rss0) peak=\(peakRSS()) peak0=\(peak0) decreases=\(stats.rateDecreases)")
