import Foundation
import GalleryTestSupport
import Testing

/// Every AI opt-out signal honoured by `dataset` before a body is read, on a loopback site that serves
/// each one: robots.txt (a Disallow, a Content-Signal and a Content-Usage line), tdmrep.json, and the
/// X-Robots-Tag, Content-Usage and tdm-reservation headers. An image refused by its headers is not read:
/// those routes send a 32 MiB body at once, right behind the headers, through a 16 KiB socket send buffer,
/// and the server counts the body bytes its socket took. A client that stops on the headers leaves at most
/// its first read and its kernel's initial receive buffer (128 KiB each here) and the server's send buffer:
/// under `unreadBound`. A client that read the body, even to refuse it afterwards, takes all 32 MiB. The run must also end in seconds: a
/// client that kept such a connection open without reading would wait for its --timeout.
@Suite struct DatasetOptOutTests {
    struct Site {
        let server = try! FaultServer()
        let work: TempDirectory
        /// (path, expected status, expected error message or nil)
        let expected: [(path: String, status: String, message: String?)] = [
            ("/ok/1.jpg", "success", nil),
            ("/private/1.jpg", "opted_out", "opted_out: robots.txt Disallow: /private/"),
            ("/signal/1.jpg", "opted_out", "opted_out: robots.txt Content-Signal ai-train=no"),
            ("/usage/1.jpg", "opted_out", "opted_out: robots.txt Content-Usage train-ai=n"),
            ("/tdm/1.jpg", "opted_out", "opted_out: tdmrep.json tdm-reservation 1 for /tdm/*"),
            ("/tdm/open.jpg", "success", nil),
            ("/hdr/xrt.jpg", "opted_out", "opted_out: X-Robots-Tag noai"),
            ("/hdr/noml.jpg", "opted_out", "opted_out: X-Robots-Tag noml"),
            ("/hdr/cu.jpg", "opted_out", "opted_out: Content-Usage train-ai=n"),
            ("/hdr/tdm.jpg", "opted_out", "opted_out: tdm-reservation: 1 (header)"),
        ]
        /// The routes whose headers refuse them: their bodies must never be sent.
        let refusedByHeaders = ["/tdm/1.jpg", "/hdr/xrt.jpg", "/hdr/noml.jpg", "/hdr/cu.jpg", "/hdr/tdm.jpg"]
        /// The body those routes send: a photo padded to 32 MiB.
        static let refusedBodyBytes = 32 << 20
        /// The most body bytes a connection refused on its headers can take: libcurl's first read (128 KiB,
        /// headers and body together), the client kernel's initial receive buffer (tcp_rmem's 128 KiB) and
        /// the 32 KiB send buffer, with room to spare. Measured: 32-128 KiB.
        static let unreadBound = 512 << 10

        init() throws {
            work = try TempDirectory(prefix: "dataset-optout")
            let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
            let large = photo + [UInt8](repeating: 0, count: Self.refusedBodyBytes - photo.count)
            server.route("/robots.txt") { _, _ in
                .status(200, text: "User-agent: *\nDisallow: /private/\nContent-Signal: /signal/ ai-train=no\nContent-Usage: /usage/ train-ai=n\n")
            }
            server.route("/.well-known/tdmrep.json") { _, _ in .status(200, text: #"[{"location": "/tdm/*", "tdm-reservation": 1}]"#) }
            let headers: [String: [String: String]] = [
                "/tdm/1.jpg": [:], "/hdr/xrt.jpg": ["X-Robots-Tag": "noai"], "/hdr/noml.jpg": ["X-Robots-Tag": "nofollow, NoML"],
                "/hdr/cu.jpg": ["Content-Usage": "train-ai=n, search=y"], "/hdr/tdm.jpg": ["tdm-reservation": "1"],
                "/tdm/open.jpg": ["tdm-reservation": "0"],
            ]
            for (path, _, _) in expected {
                var fieldsFor = headers[path] ?? [:]
                fieldsFor["Content-Type"] = "image/jpeg"
                let fields = fieldsFor
                let body = refusedByHeaders.contains(path) ? large : photo
                server.route(path) { _, _ in .status(200, headers: fields, body: body).sendBuffer(16 << 10) }
            }
        }

        func list() throws -> String {
            try work.write(Array(expected.map { server.url($0.path) }.joined(separator: "\n").utf8), to: "list.txt")
        }
    }

    @Test func eachSignalKeepsItsImageOutBeforeTheBody() async throws {
        let site = try Site()
        let out = site.work.file("out")
        let started = Date()
        let r = try await DatasetCLI.run(["--url-list", try site.list(), "--output-folder", out, "--output-format", "webdataset",
                                          "--timeout", "60"])
        let seconds = Date().timeIntervalSince(started)
        #expect(r.exitCode == 0, "\(r.stderrText)")
        // A refused connection held open lasts the whole --timeout (60 s); the run takes about 1 s alone and
        // took 25 s once beside the rest of CLITests on a loaded machine, so the bound sits between them.
        #expect(seconds < 45, "the run took \(seconds) s: a refused connection was held open (--timeout 60)")
        #expect(r.stderrText.contains("8 opted_out"), "\(r.stderrText)")
        let data = try await DatasetCLI.read(out)
        let rows = DatasetCLI.rows(data)
        for (i, e) in site.expected.enumerated() {
            let row = rows[String(format: "%09d", i)] ?? [:]
            #expect(row["status"] as? String == e.status, "\(e.path): \(row["status"] ?? "none") \(row["error_message"] ?? "")")
            #expect((row["error_message"] as? String) == e.message, "\(e.path)")
        }
        // robots.txt's refusals are never asked for; header refusals did not read their bodies.
        for path in ["/private/1.jpg", "/signal/1.jpg", "/usage/1.jpg"] { #expect(site.server.requests(path: path).isEmpty, "\(path) was requested") }
        for path in site.refusedByHeaders {
            #expect(site.server.requests(path: path).count == 1, "\(path)")
            let sent = site.server.bodyBytesSent(path: path)
            print("opt-out \(path): \(sent) of \(Site.refusedBodyBytes) body bytes taken by the socket")
            #expect(sent < Site.unreadBound, "\(path): \(sent) of \(Site.refusedBodyBytes) body bytes sent: the body was read")
        }
        #expect(site.server.requests(path: "/robots.txt").count == 1)
        #expect(site.server.requests(path: "/.well-known/tdmrep.json").count == 1)
        let stats = (data["stats"] as? [String: [String: Any]])?["00000"]
        #expect(stats?["opted_out"] as? Int == 8 && stats?["successes"] as? Int == 2, "\(stats ?? [:])")
    }

    @Test func ignoredSignalsAreNotHonouredAndNotFetched() async throws {
        let site = try Site()
        // robots.txt's Disallow and Content-Signal ignored: those rows are fetched; robots.txt's Content-Usage
        // line (a signal of its own) and the header signals still hold.
        let some = site.work.file("some")
        let r = try await DatasetCLI.run(["--url-list", try site.list(), "--output-folder", some, "--ignore-opt-out", "robots.txt,content-signal",
                                          "--timeout", "20", "--quiet"])
        #expect(r.exitCode == 0, "\(r.stderrText)")
        let rows = DatasetCLI.rows(try await DatasetCLI.read(some))
        #expect(rows["000000001"]?["status"] as? String == "success", "Disallow ignored")
        #expect(rows["000000002"]?["status"] as? String == "success", "Content-Signal ignored")
        #expect(rows["000000003"]?["error_message"] as? String == "opted_out: robots.txt Content-Usage train-ai=n", "Content-Usage kept")
        #expect(rows["000000006"]?["status"] as? String == "opted_out", "X-Robots-Tag kept")

        let all = site.work.file("all")
        let before = site.server.requests(path: "/robots.txt").count
        let ignoring = try await DatasetCLI.run(["--url-list", try site.list(), "--output-folder", all, "--ignore-opt-out", "all",
                                                 "--timeout", "3", "--quiet"])
        #expect(ignoring.exitCode == 0, "\(ignoring.stderrText)")
        #expect(site.server.requests(path: "/robots.txt").count == before, "robots.txt fetched although ignored")
        let plain = DatasetCLI.rows(try await DatasetCLI.read(all))
        #expect(plain["000000001"]?["status"] as? String == "success")
        #expect(plain.values.allSatisfy { ($0["status"] as? String) != "opted_out" })

        let bad = try await DatasetCLI.run(["--url-list", try site.list(), "--output-folder", all, "--ignore-opt-out", "cookies"])
        #expect(bad.exitCode == 2 && bad.stderrText.contains("x-robots-tag, robots.txt, content-signal, content-usage, tdmrep, all"), "\(bad.stderrText)")
    }
}
