import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// Every option through a real socket: the served size and format of a real photo, signatures, presets.
@Suite(.serialized) struct ServeOptionsTests {
    /// An 1800x1200 camera photo stored rotated (EXIF 6), served upright, and a PNG with alpha.
    static func root() throws -> TempDirectory {
        let dir = try TempDirectory(prefix: "serve-root")
        _ = try dir.write(try Corpus.bytes("exif-orientation/Landscape_6.jpg"), to: "land.jpg")
        _ = try dir.write(try Corpus.bytes("png-suite/basn6a08.png"), to: "alpha.png")
        return dir
    }

    @Test func eachOptionGivesTheDocumentedSizeAndFormat() async throws {
        let dir = try Self.root()
        defer { dir.remove() }
        let server = try await ServeProcess(["--root", dir.path, "--quiet"])
        defer { _ = server.stop() }
        let cases: [(String, Int, Int, ImageFormat)] = [
            ("rs:fit:300:300", 300, 200, .jpeg),
            ("rs:fill:300:300", 300, 300, .jpeg),
            ("rs:fill:300:300/g:sm", 300, 300, .jpeg),
            ("rs:fill:300:300/g:nowe:10:10", 300, 300, .jpeg),
            ("rs:fill-down:4000:2000", 1800, 900, .jpeg),
            ("rs:force:100:300", 100, 300, .jpeg),
            ("rs:auto:300:100", 300, 100, .jpeg),
            ("rs:auto:100:300", 100, 67, .jpeg),
            ("w:300/dpr:2", 600, 400, .jpeg),
            ("w:3600/el:1", 3600, 2400, .jpeg),
            ("w:3600", 1800, 1200, .jpeg),
            ("h:120/f:png", 180, 120, .png),
            ("h:120/f:webp", 180, 120, .webp),
            ("h:120/format:avif", 180, 120, .avif),
            ("h:120/bl:4/q:30/ar:1", 180, 120, .jpeg),
        ]
        for (options, width, height, format) in cases {
            let response = try await Client.get(server.baseURL + "/insecure/\(options)/plain/local:///land.jpg")
            #expect(response.status == 200, "\(options): \(response.text)")
            guard response.status == 200 else { continue }
            let got = try Client.probe(response.body)
            #expect(got.width == width && got.height == height && got.format == format,
                    "\(options): got \(got.width)x\(got.height) \(String(describing: got.format))")
            #expect(response.headers["Content-Type"] == "image/" + format.rawValue)
        }
        // The source's format is kept: a PNG stays PNG; the extension forms choose another.
        let png = try await Client.get(server.baseURL + "/insecure/w:16/plain/local:///alpha.png")
        #expect(try Client.probe(png.body).format == .png)
        let encoded = "local:///alpha.png".data(using: .utf8)!.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let webp = try await Client.get(server.baseURL + "/insecure/w:16/\(encoded).webp")
        #expect(try Client.probe(webp.body).format == .webp)
        // Blur and quality change the bytes, not the size.
        let sharp = try await Client.get(server.baseURL + "/insecure/h:120/plain/local:///land.jpg")
        let soft = try await Client.get(server.baseURL + "/insecure/h:120/bl:4/plain/local:///land.jpg")
        #expect(soft.body.count < sharp.body.count * 9 / 10, "blur: \(soft.body.count) vs \(sharp.body.count) bytes")
        // Enlarging past the megapixel limit (50 MP) is refused before any pixel is made.
        let huge = try await Client.get(server.baseURL + "/insecure/rs:force:16000:16000:1/plain/local:///land.jpg")
        #expect(huge.status == 413 && huge.text.contains("MP"), "\(huge.status) \(huge.text)")
        let tall = try await Client.get(server.baseURL + "/insecure/w:12000/el:1/plain/local:///land.jpg")
        #expect(tall.status == 413, "12000 x 8000 enlarged: \(tall.status)")
        // Unsupported options are named.
        let bad = try await Client.get(server.baseURL + "/insecure/wm:0.5/plain/local:///land.jpg")
        #expect(bad.status == 400 && bad.text.contains("wm"))
    }

    @Test func signaturesValidWrongAndRotated() async throws {
        let dir = try Self.root()
        defer { dir.remove() }
        let (key1, salt1, key2, salt2) = ("736563726574", "68656C6C6F", "0a0b0c", "0d0e0f")
        let server = try await ServeProcess(["--root", dir.path, "--quiet", "--key", key1, "--salt", salt1],
                                            environment: [:])
        defer { _ = server.stop() }
        let path = "/w:50/plain/local:///land.jpg"
        func signed(_ key: String, _ salt: String) -> String {
            let signer = try! GalleryServeSigning.sign(path, key: key, salt: salt)
            return server.baseURL + "/" + signer + path
        }
        #expect(try await Client.get(signed(key1, salt1)).status == 200)
        #expect(try await Client.get(signed(key2, salt2)).status == 403)
        #expect(try await Client.get(server.baseURL + "/insecure" + path).status == 403)
        let rotated = try await ServeProcess(["--root", dir.path, "--quiet"],
                                             environment: ["IMGPROXY_KEYS": "\(key2),\(key1)", "IMGPROXY_SALTS": "\(salt2),\(salt1)"])
        defer { _ = rotated.stop() }
        for (key, salt) in [(key1, salt1), (key2, salt2)] {
            let url = rotated.baseURL + "/" + (try GalleryServeSigning.sign(path, key: key, salt: salt)) + path
            #expect(try await Client.get(url).status == 200, "rotated key \(key)")
        }
    }

    @Test func aPortInUseIsNamedAndExitsOne() async throws {
        let first = try await ServeProcess(["--quiet"])
        defer { _ = first.stop() }
        let taken = String(first.baseURL.dropFirst("http://".count))
        let second = try ProcessRunner.run(ServeProcess.binary, ["serve", "--bind", taken, "--quiet"], timeout: 30)
        #expect(second.exitCode == 1, "exit \(second.status)")
        #expect(second.stderrText.contains("cannot listen on \(taken)"), "\(second.stderrText)")
    }

    /// URLs made by pyimgproxy (PyPI), signed and unsigned, plain and Base64 sources.
    @Test func pyimgproxyURLsAreAccepted() async throws {
        let dir = try Self.root()
        defer { dir.remove() }
        let (key, salt) = ("943b421c9eb07c830af81030552c86009268de4e532ba2ee2eab8247c6da0881",
                           "520f986b998545b4785e0defbc4f3c1203f22de2374a3d53cb7a7fe9fea309c5")
        let server = try await ServeProcess(["--root", dir.path, "--quiet"], environment: ["IMGPROXY_KEY": key, "IMGPROXY_SALT": salt])
        defer { _ = server.stop() }
        let script = """
            import sys
            from pyimgproxy import ImgProxy
            p = ImgProxy(sys.argv[1], key=sys.argv[2], salt=sys.argv[3])
            print(p.image("local:///land.jpg").resize("fill", 120, 80).url)
            print(p.image("local:///land.jpg").width(90).enlarge(True).dpr(2).url)
            print(p.image("local:///land.jpg?v=1").resizing_type("fit").height(60).format("webp").url)
            print(p.image("local:///land.jpg").gravity("sm").quality(50).resize("fill-down", 64, 64).url)
            """
        let result = try ProcessRunner.run("python3", ["-c", script, server.baseURL, key, salt], timeout: 60)
        #expect(result.exitCode == 0, "pyimgproxy: \(result.stderrText) (Scripts/bootstrap installs it)")
        let urls = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(urls.count == 4)
        let expected: [(Int, Int)] = [(120, 80), (180, 120), (90, 60), (64, 64)]
        for (url, size) in zip(urls, expected) {
            let response = try await Client.get(url)
            // The third names a source with a query, which pyimgproxy Base64-encodes; no such file exists.
            if url.contains("/rt:fit") || url.contains("resizing_type") {
                #expect(response.status == 404, "\(url): \(response.status) \(response.text)")
                continue
            }
            #expect(response.status == 200, "\(url): \(response.text)")
            if response.status == 200 {
                let got = try Client.probe(response.body)
                #expect(got.width == size.0 && got.height == size.1, "\(url): \(got.width)x\(got.height)")
            }
        }
    }
}

/// imgproxy's signature, computed the documented way (Python's hmac), independent of the service's code.
enum GalleryServeSigning {
    static func sign(_ path: String, key: String, salt: String) throws -> String {
        let script = "import hmac,hashlib,base64,sys;print(base64.urlsafe_b64encode(hmac.new(bytes.fromhex(sys.argv[1]),bytes.fromhex(sys.argv[2])+sys.argv[3].encode(),hashlib.sha256).digest()).rstrip(b'=').decode())"
        let result = try ProcessRunner.run("python3", ["-c", script, key, salt, path], timeout: 30)
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
