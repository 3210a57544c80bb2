import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryTransfer

/// Several transfer loops in one engine: the per-host limit, kept-alive connections and the rate hold across
/// all of them, as the servers see it; plain-http transfers of one host are spread over the loops, an https
/// host's stay on one (HTTP/2 multiplexing over one connection).
@Suite struct EngineLanesTests {
    /// Loops that carried at least one transfer.
    static func loopsUsed(_ engine: TransferEngine) -> Int { engine.transfersPerLoop.filter { $0 > 0 }.count }

    @Test func perHostLimitAndConnectionsHoldAcrossLoops() async throws {
        let server = try FaultServer()
        let body = Kit.jpeg(30_000)
        server.route("/slow") { _, _ in .file(body).trickle(bytesPerSecond: 100_000) }
        let dir = try TempDirectory()
        let engine = Kit.engine { $0.transferLoops = 4; $0.maxConcurrentPerHost = 3; $0.maxConcurrentTransfers = 16 }
        #expect(engine.transfersPerLoop.count == 4)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<12 {
                group.addTask {
                    _ = try await engine.download(DownloadRequest(url: server.url("/slow?i=\(i)"), destination: dir.file("\(i)")))
                }
            }
            try await group.waitForAll()
        }
        for i in 0..<12 { #expect(Kit.read(dir.file("\(i)")) == body) }
        // Each response takes ~0.3 s; with 3 at a time, no 0.15 s window may see more than 3 arrivals.
        let arrivals = server.requests(path: "/slow").map(\.arrival).sorted()
        #expect(arrivals.count == 12)
        let crowd = arrivals.map { a in arrivals.filter { $0 >= a && $0.timeIntervalSince(a) < 0.15 }.count }.max() ?? 0
        #expect(crowd <= 3)
        // Every connection the server ever accepted: no more than the per-host limit, over all loops.
        #expect(server.connectionCount <= 3, "\(server.connectionCount) connections")
        #expect(engine.peakConcurrentTransfers == 3)
        // The three slots went to three different loops.
        #expect(Self.loopsUsed(engine) == 3, "\(engine.transfersPerLoop)")
    }

    @Test func keptAliveConnectionsToNginxStayWithinThePerHostLimit() async throws {
        let root = try TempDirectory()
        let count = 80
        var bodies: [String: [UInt8]] = [:]
        for i in 0..<count {
            let b = Kit.jpeg(10_000 + (i * 7919) % 300_000, seed: UInt64(i + 900))
            try root.write(b, to: "l\(i).jpg")
            bodies["l\(i).jpg"] = b
        }
        let nginx = try NginxServer(root: root.path)
        let dir = try TempDirectory()
        let engine = Kit.engine { $0.transferLoops = 3; $0.maxConcurrentTransfers = 16; $0.maxConcurrentPerHost = 5 }
        let requests = (0..<count).map {
            DownloadRequest(url: nginx.url("/l\($0).jpg"), destination: dir.file("l\($0).jpg"), expectImage: true)
        }
        let failures = FailureList()
        await engine.downloadAll(requests) { if let e = $0.error { failures.add(e) } }
        #expect(failures.all.isEmpty, "\(failures.all)")
        for (name, body) in bodies { #expect(Kit.read(dir.file(name)) == body, "\(name)") }
        _ = nginx.waitForRequests(path: "/l\(count - 1).jpg", count: 1)
        let all = nginx.accessLog()
        #expect(all.count == count)
        let connections = Set(all.map(\.connection))
        #expect(connections.count <= 5, "\(connections.count) connections over \(engine.transfersPerLoop)")
        #expect(Self.loopsUsed(engine) == 3, "\(engine.transfersPerLoop)")
        #expect(engine.transfersPerLoop.reduce(0, +) == count)
    }

    @Test func anHTTPSHostStaysOnOneLoopAndOneConnection() async throws {
        let root = try TempDirectory()
        let count = 24
        for i in 0..<count { try root.write(Kit.jpeg(20_000 + i * 1_000, seed: UInt64(i + 70)), to: "s\(i).jpg") }
        let nginx = try NginxServer(root: root.path, tls: true)
        let dir = try TempDirectory()
        let engine = Kit.engine { $0.transferLoops = 4; $0.caCertificatesPath = nginx.certificatePath; $0.maxConcurrentPerHost = 6 }
        let failures = FailureList()
        await engine.downloadAll((0..<count).map {
            DownloadRequest(url: nginx.url("/s\($0).jpg"), destination: dir.file("s\($0).jpg"), expectImage: true)
        }) { if let e = $0.error { failures.add(e) } }
        #expect(failures.all.isEmpty, "\(failures.all)")
        _ = nginx.waitForRequests(path: "/s\(count - 1).jpg", count: 1)
        let log = nginx.accessLog()
        #expect(log.count == count)
        #expect(Set(log.map(\.serverProtocol)) == ["HTTP/2.0"])
        #expect(engine.peakConcurrentTransfers > 1)
        #expect(Set(log.map(\.connection)).count == 1, "connections: \(Set(log.map(\.connection)))")
        #expect(Self.loopsUsed(engine) == 1, "\(engine.transfersPerLoop)")
    }

    /// 10 requests at 20 per second, 8 allowed at once over 4 loops: the i-th arrival at the server comes at
    /// least i × 50 ms after the batch began (the rate is the engine's, not a loop's).
    @Test func theRateHoldsAcrossLoops() async throws {
        try await Kit.offPool {
            let server = try FaultServer()
            let paths = (0..<10).map { "/r\($0).jpg" }
            PolitenessTests.serve(server, paths)
            let engine = Kit.engine { $0.transferLoops = 4; $0.maxConcurrentPerHost = 8; $0.requestsPerSecondPerHost = 20 }
            let dir = try TempDirectory()
            let start = Date()
            let failures = FailureList()
            await engine.downloadAll(paths.map { DownloadRequest(url: server.url($0), destination: dir.file(String($0.dropFirst()))) }) {
                if let e = $0.error { failures.add(e) }
            }
            #expect(failures.all.isEmpty, "\(failures.all)")
            let offsets = server.allRequests.map { $0.arrival.timeIntervalSince(start) }.sorted()
            #expect(offsets.count == 10)
            for (i, offset) in offsets.enumerated() {
                #expect(offset >= Double(i) * 0.05 - 0.005, "request \(i) at \(offset) s: \(offsets)")
            }
            #expect(Self.loopsUsed(engine) > 1, "\(engine.transfersPerLoop)")
        }
    }

    /// The mapping itself: one loop for everything when there is one; per host and slot, always the same loop;
    /// a host's first L plain-http slots on L different loops; every https slot of a host on one loop.
    @Test func lanesFollowHostAndSlot() {
        #expect(Lane.of(host: "a:80", url: "http://a/x", slot: 5, loops: 1) == Lane(loop: 0))
        let loops = 4
        for host in ["a.example:80", "b.example:8080", "127.0.0.1:4242"] {
            let http = (0..<loops).map { Lane.of(host: host, url: "http://\(host)/p", slot: $0, loops: loops).loop }
            #expect(Set(http).count == loops, "\(host): \(http)")
            #expect(http == (0..<loops).map { Lane.of(host: host, url: "http://\(host)/q", slot: $0, loops: loops).loop })
            #expect(Lane.of(host: host, url: "http://\(host)/p", slot: loops, loops: loops).loop == http[0])
            let https = Set((0..<8).map { Lane.of(host: host, url: "HTTPS://\(host)/p", slot: $0, loops: loops).loop })
            #expect(https.count == 1, "\(host): \(https)")
        }
    }

    /// Admission slots are numbered from 0; each admission takes the first free slot from a starting point
    /// that moves on by one with every admission (of any host), so transfers that come one at a time still go
    /// round a host's slots.
    @Test func admissionHandsOutSlotsInTurn() async {
        let gate = AdmissionGate(total: 10, perHost: 3)
        #expect(await gate.acquire(host: "a") == 0)
        #expect(await gate.acquire(host: "a") == 1)
        #expect(await gate.acquire(host: "b") == 2, "turn 2, and b's own slot 2 is free")
        gate.release(host: "a", slot: 0)
        #expect(await gate.acquire(host: "a") == 0, "turn 3 starts at 0, free again")
        #expect(await gate.acquire(host: "b") == 1, "turn 4 starts at 1")
        // A transfer to "a" while all three of its slots are held waits for one to be given back.
        #expect(await gate.acquire(host: "a") == 2, "turn 5 starts at 2")
        let waiting = Task { await gate.acquire(host: "a") }
        while gate.waiting == 0 { await Task.yield() }
        gate.release(host: "a", slot: 1)
        #expect(await waiting.value == 1)
        #expect(gate.peakRunning == 5)
        // One at a time, a host's transfers still take every slot in turn.
        let one = AdmissionGate(total: 10, perHost: 3)
        var seen: [Int] = []
        for _ in 0..<6 {
            let slot = await one.acquire(host: "c")
            seen.append(slot)
            one.release(host: "c", slot: slot)
        }
        #expect(seen == [0, 1, 2, 0, 1, 2])
    }
}
