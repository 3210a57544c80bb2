import Foundation
import GalleryRunner
import GallerySync
import Testing

/// ``MD5Lanes``: the MD5s of many streams fed at once, by threads of their own in pieces of every size, equal
/// OpenSSL's MD5 of each stream's bytes, with the lanes (sixteen streams in AVX-512 registers) and without.
@Suite struct MD5LanesTests {
    /// `count` streams of random lengths (some empty, some under a block, most a few hundred KB to 2 MB), each fed
    /// by a thread of its own in random pieces; returns each stream's digest beside OpenSSL's.
    static func digests(_ lanes: MD5Lanes, count: Int, seed: UInt64) -> [(ours: String, openssl: String)] {
        var random = SplitMix64(seed: seed)
        let streams: [[UInt8]] = (0..<count).map { i in
            let length = i == 0 ? 0 : i == 1 ? 63 : i == 2 ? 64 : Int(random.next() % 2_000_000)
            var bytes = [UInt64](repeating: 0, count: (length + 7) / 8)
            for k in bytes.indices { bytes[k] = random.next() }
            return bytes.withUnsafeBytes { Array($0.prefix(length)) }
        }
        let pieces: [[Int]] = streams.map { bytes in
            var cuts: [Int] = []
            var at = 0
            while at < bytes.count {
                let piece = min(bytes.count - at, 1 + Int(random.next() % (random.next() % 2 == 0 ? 100 : 600_000)))
                cuts.append(piece)
                at += piece
            }
            return cuts
        }
        let results = Locked([String?](repeating: nil, count: count))
        let group = DispatchGroup()
        for i in 0..<count {
            group.enter()
            let stream = lanes.open()
            Thread {
                var at = 0
                for piece in pieces[i] {
                    lanes.feed(stream, Array(streams[i][at..<(at + piece)]))
                    at += piece
                }
                let digest = lanes.finish(stream)
                results.withLock { $0[i] = digest }
                group.leave()
            }.start()
        }
        group.wait()
        let ours = results.withLock { $0 }
        return (0..<count).map { (ours[$0] ?? "none", Digest.md5.hex(streams[$0])) }
    }

    @Test(arguments: [16, 0]) func streamsFedAtOnceGiveOpenSSLsDigests(lanes: Int) {
        let hasher = MD5Lanes(lanes: lanes)
        for (i, pair) in Self.digests(hasher, count: 24, seed: 7).enumerated() {
            #expect(pair.ours == pair.openssl, "stream \(i): \(pair.ours) vs OpenSSL's \(pair.openssl)")
        }
        if lanes == 16, MD5Lanes.processorLanes == 16 {
            let batches = hasher.batchesInLanes
            #expect(batches.eight + batches.sixteen > 0, "no chunks of two streams or more went through the lanes together")
        }
    }

    /// One chunk fed to each of `count` open streams waits until every stream has one, then all go through the
    /// lanes together: eight lanes for 5 streams, sixteen for 12.
    @Test(arguments: [5, 12]) func theChunksOfEveryOpenStreamGoThroughTheLanesTogether(count: Int) throws {
        try #require(MD5Lanes.processorLanes == 16, "this processor has no AVX-512: the lanes cannot run here")
        let hasher = MD5Lanes(lanes: 16)
        var random = SplitMix64(seed: UInt64(count))
        let chunks = (0..<count).map { _ in (0..<10_000).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        let streams = chunks.map { _ in hasher.open() }
        for (stream, chunk) in zip(streams, chunks) { hasher.feed(stream, chunk) }
        let digests = streams.map { hasher.finish($0) }
        #expect(digests == chunks.map { Digest.md5.hex($0) })
        let batches = hasher.batchesInLanes
        #expect(count > 8 ? batches == (0, 1) : batches == (1, 0), "batches in eight lanes \(batches.eight), in sixteen \(batches.sixteen)")
    }

    @Test func anEmptyStreamAndAnAbandonedOneDoNotHoldTheOthers() {
        let hasher = MD5Lanes(lanes: 16)
        let empty = hasher.open()
        let abandoned = hasher.open()
        hasher.feed(abandoned, [1, 2, 3])
        hasher.abandon(abandoned)
        #expect(hasher.finish(empty) == "d41d8cd98f00b204e9800998ecf8427e")
        let pairs = Self.digests(hasher, count: 4, seed: 11)
        #expect(pairs.allSatisfy { $0.ours == $0.openssl }, "\(pairs)")
    }
}
