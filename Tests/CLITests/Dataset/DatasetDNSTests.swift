import Foundation
import GallerySync
import GalleryTestSupport
import Testing

/// `dataset` resolving through its own resolver (`--dns-server`, a scripted DNS server on 127.0.0.1): a host
/// asked once for all its rows, img2dataset's texts for each DNS failure class, link-local refused, and a
/// dead resolver refused before any shard is written.
@Suite struct DatasetDNSTests {
    @Test func rowsGetTheirDNSClassAndEachHostIsAskedOnce() async throws {
        let work = try TempDirectory(prefix: "dataset-dns")
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let server = try FaultServer()
        server.routeUnmatched { request, _ in
            request.path == "/robots.txt" ? .status(404, text: "none") : .status(200, headers: ["Content-Type": "image/jpeg"], body: photo)
        }
        let dns = try TestDNSServer()
        for i in 0..<4 { dns.set("site\(i).test", .address(v4: ["127.0.0.1"], ttl: 60)) }
        dns.set("gone.test", .nameError(negativeTTL: 60))
        dns.set("broken.test", .serverFailure)
        dns.set("metadata.test", .address(v4: ["169.254.169.254"], ttl: 60))
        let port = server.port
        var urls: [String] = []
        for i in 0..<20 { urls.append("http://site\(i % 4).test:\(port)/\(i).jpg") }
        urls += ["http://gone.test:\(port)/a.jpg", "http://broken.test:\(port)/a.jpg",
                 "http://metadata.test:\(port)/latest/meta-data/", "http://169.254.169.254/latest/meta-data/"]
        let list = try work.write(Array(urls.joined(separator: "\n").utf8), to: "list.txt")
        let out = work.file("out")
        let r = try await DatasetCLI.run(["--url-list", list, "--output-folder", out, "--dns-server", dns.address,
                                          "--timeout", "5", "--quiet"])
        #expect(r.exitCode == 0, "\(r.stderrText)")
        let rows = DatasetCLI.rows(try await DatasetCLI.read(out))
        for i in 0..<20 { #expect(rows[String(format: "%09d", i)]?["status"] as? String == "success", "row \(i)") }
        let message = { (i: Int) in rows[String(format: "%09d", i)]?["error_message"] as? String ?? "" }
        #expect(message(20) == "<urlopen error [Errno -2] Name or service not known>")
        #expect(message(21) == "<urlopen error [Errno -3] Temporary failure in name resolution>")
        #expect(message(22).contains("refused to connect to 169.254.169.254 (link-local)"), "\(message(22))")
        #expect(message(23).contains("refused to connect to 169.254.169.254 (link-local)"), "\(message(23))")
        for i in 0..<4 {
            #expect(dns.questions("site\(i).test", .a) == 1 && dns.questions("site\(i).test", .aaaa) == 1, "site\(i).test")
        }
        #expect(dns.questions("gone.test", .a) == 1)
    }

    @Test func aDeadResolverStopsTheCommandBeforeAnyShard() async throws {
        let work = try TempDirectory(prefix: "dataset-dns-dead")
        // A server that answers nothing and keeps its port: a stopped one frees the port for the next test's
        // server, which would answer.
        let dns = try TestDNSServer()
        defer { dns.stop() }
        dns.answersPerSecond = 0
        let address = dns.address
        let list = try work.write(Array("http://site.test/a.jpg\n".utf8), to: "list.txt")
        let out = work.file("out")
        let r = try await DatasetCLI.run(["--url-list", list, "--output-folder", out, "--dns-server", address, "--quiet"])
        #expect(r.exitCode == 3, "\(r.stderrText)")
        #expect(r.stderrText.contains("the DNS resolver \(address) did not answer"), "\(r.stderrText)")
        #expect(dns.questions("resolver-check.fetch-gallery.invalid", .a) == 3, "the probe's three tries")
        #expect(dns.questions("site.test", .a) == 0, "no row is resolved once the probe failed")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        #expect(!written.contains { $0.hasSuffix(".parquet") || $0.hasSuffix("_stats.json") }, "\(written)")
        let typo = try await DatasetCLI.run(["--url-list", list, "--output-folder", out, "--dns-server", "127.0.0.1:99999"])
        #expect(typo.exitCode == 2 && typo.stderrText.contains("--dns-server 127.0.0.1:99999"), "\(typo.stderrText)")
    }

    /// `--dns recursive` from private roots (nsd serving a root, `zz` and `web.zz`): rows over names of the
    /// tree succeed, a missing name gets img2dataset's NXDOMAIN text, and the modes' flags are not mixed.
    @Test func recursiveResolutionFromPrivateRoots() async throws {
        let work = try TempDirectory(prefix: "dataset-dns-recursive")
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let server = try FaultServer()
        server.routeUnmatched { request, _ in
            request.path == "/robots.txt" ? .status(404, text: "none") : .status(200, headers: ["Content-Type": "image/jpeg"], body: photo)
        }
        let tree = try DNSHierarchy(["site0": .a("127.0.0.1"), "site1": .a("127.0.0.1"), "alias": .cname("site0.web.zz.")])
        let port = server.port
        var urls = (0..<6).map { i in
            let host = tree.host(i % 2 == 0 ? "site0" : "site1")
            return "http://\(host):\(port)/\(i).jpg"
        }
        urls += ["http://\(tree.host("alias")):\(port)/a.jpg", "http://\(tree.host("missing")):\(port)/a.jpg"]
        let list = try work.write(Array(urls.joined(separator: "\n").utf8), to: "list.txt")
        let out = work.file("out")
        let r = try await DatasetCLI.run(["--url-list", list, "--output-folder", out, "--dns", "recursive",
                                          "--dns-root-hints", tree.hintsPath, "--timeout", "5", "--quiet"])
        #expect(r.exitCode == 0, "\(r.stderrText)")
        let rows = DatasetCLI.rows(try await DatasetCLI.read(out))
        for i in 0..<7 {
            let row = rows[String(format: "%09d", i)] ?? [:]
            #expect(row["status"] as? String == "success", "row \(i): \(row)")
        }
        #expect(rows[String(format: "%09d", 7)]?["error_message"] as? String == "<urlopen error [Errno -2] Name or service not known>")
        let mixed = try await DatasetCLI.run(["--url-list", list, "--output-folder", out, "--dns", "recursive", "--dns-server", "127.0.0.1"])
        #expect(mixed.exitCode == 2 && mixed.stderrText.contains("--dns recursive"), "\(mixed.stderrText)")
        let deadRoots = try work.write(Array(". 3600000 NS A.ROOT.\nA.ROOT. 3600000 A 127.0.53.254\n".utf8), to: "dead.hints")
        let dead = try await DatasetCLI.run(["--url-list", list, "--output-folder", work.file("out2"), "--dns", "recursive",
                                             "--dns-root-hints", deadRoots, "--quiet"])
        #expect(dead.exitCode == 3 && dead.stderrText.contains(deadRoots), "\(dead.stderrText)")
    }

    /// The system's resolver (a mount namespace's /etc/resolv.conf naming an address where nothing answers) is
    /// found dead mid-run: the run stops through its own stop, the shard keeps the rows that finished (IP-literal
    /// URLs need no resolver), and the command exits 3 naming the resolver rather than exiting from a
    /// background task with the shard lost.
    @Test func aDeadSystemResolverMidRunKeepsTheFinishedRows() async throws {
        try await DedicatedTaskExecutor.offPool {
            let work = try TempDirectory(prefix: "dataset-dns-system")
            let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
            let server = try FaultServer()
            server.routeUnmatched { request, _ in
                if request.path == "/robots.txt" { return .status(404, text: "none") }
                usleep(150_000)
                return .status(200, headers: ["Content-Type": "image/jpeg"], body: photo)
            }
            var urls = (0..<400).map { "http://127.0.0.1:\(server.port)/\($0).jpg" }
            urls[3] = "http://photos.example:\(server.port)/named.jpg"
            let list = try work.write(Array(urls.joined(separator: "\n").utf8), to: "list.txt")
            let resolv = try work.write(Array("nameserver 127.0.53.253\n".utf8), to: "resolv.conf")
            let out = work.file("out")
            let command = "mount --bind '\(resolv)' /etc/resolv.conf && exec '\(DownloadCLI.binary)' dataset --url-list '\(list)' "
                + "--output-folder '\(out)' --output-format webdataset --number-sample-per-shard 1000 --jobs 4 --quiet"
            let start = Date()
            let r = await DownloadCLI.wait(try ProcessRunner("unshare", ["-m", "bash", "-c", command]), timeout: 120)
            #expect(r.exitCode == 3, "\(r.stderrText)")
            #expect(r.stderrText.contains("the DNS resolver 127.0.53.253:53 did not answer"), "\(r.stderrText)")
            #expect(Date().timeIntervalSince(start) < 40)
            #expect(FileManager.default.fileExists(atPath: out + "/00000_partial.json"), "the finished rows were not kept")
            let kept = DatasetCLI.rows(try await DatasetCLI.read(out))
            #expect(kept.count >= 20 && kept.count < 400, "\(kept.count) rows kept")
            // Only the row whose name went unanswered before the resolver was found dead is not a success: it says
            // so in img2dataset's words, and --retry-failed fetches it again once the resolver works.
            let failed = kept.filter { $0.value["status"] as? String != "success" }
            #expect(failed.count <= 1 && failed.values.allSatisfy {
                $0["error_message"] as? String == "<urlopen error [Errno -3] Temporary failure in name resolution>"
            }, "\(failed)")
        }
    }
}
