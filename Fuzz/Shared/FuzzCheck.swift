// Helpers shared by every harness (compiled with each one by Scripts/fuzz).

/// Fails the execution with a message libFuzzer keeps next to the crashing input. An invariant
/// violation is a finding just like a crash, so it must stop the run, also in -O builds.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError("fuzz invariant violated: \(message())", file: file, line: line) }
}

/// A cheap, deterministic digest of the input used to pick per-input options (target size, fast
/// paths): the same input always takes the same path, so every artifact reproduces.
func fuzzSeed(_ data: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    // Length plus a few bytes from the end: mutations in the body rarely change the choice, which
    // keeps libFuzzer's coverage feedback stable.
    hash = (hash ^ UInt64(data.count)) &* 0x100_0000_01b3
    for byte in data.suffix(4) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
}
