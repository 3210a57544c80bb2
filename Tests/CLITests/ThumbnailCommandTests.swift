import Foundation
import GalleryTestSupport
import Testing

/// Runs the built `fetch-gallery thumbnail` end to end: files in, thumbnails and exit status out.
@Suite struct ThumbnailCommandTests {
    let binary = (try? BuiltProduct.path()) ?? "fetch-gallery (not built)"

    @Test("good files become thumbnails; exit 0", arguments: [1, 2])
    func allGood(jobs: Int) throws {
        let out = try TempDirectory()
        let inputs = try ["exif-orientation/Landscape_6.jpg", "exif-orientation/Portrait_3.jpg",
                      "png-suite/basn6a08.png", "derived/testorig-progressive.jpg"].map(Corpus.path)
        let result = try ProcessRunner.run(binary, ["thumbnail", "--jobs", "\(jobs)", "--out", out.path] + inputs)
        #expect(result.exitCode == 0, "\(result.stderrText)")
        #expect(result.stderrText.isEmpty)
        let made = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(made == ["Landscape_6.jpg", "Portrait_3.jpg", "basn6a08.png", "testorig-progressive.jpg"])
        let landscape = try out.read("Landscape_6.jpg")
        #expect(landscape.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(try out.read("basn6a08.png").starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    /// HEIC and AVIF in; `--format avif,jpeg` writes both files; several formats need one fallback.
    @Test("HEIC and AVIF in, AVIF and JPEG out")
    func heifInAvifOut() throws {
        let out = try TempDirectory()
        let inputs = try ["heif/photo-thumbnail.heic", "heif/exif-orientation-6.avif"].map(Corpus.path)
        let result = try ProcessRunner.run(binary, ["thumbnail", "--size", "200", "--format", "avif,jpeg", "--out", out.path] + inputs)
        #expect(result.exitCode == 0, "\(result.stderrText)")
        let made = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(made == ["exif-orientation-6.avif", "exif-orientation-6.jpg", "photo-thumbnail.avif", "photo-thumbnail.jpg"])
        #expect(try out.read("photo-thumbnail.jpg").starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(Array(try out.read("photo-thumbnail.avif")[4..<12]) == Array("ftypavif".utf8))
        let bad = try ProcessRunner.run(binary, ["thumbnail", "--format", "webp,avif", "--out", out.path] + inputs)
        #expect(bad.exitCode == 2 && bad.stderrText.contains("one of auto, jpeg or png"), "\(bad.stderrText)")
    }

    @Test("a bad file prints one line naming it, the rest go on; exit 1")
    func badFileDoesNotStopTheRest() throws {
        let out = try TempDirectory()
        let scratch = try TempDirectory()
        let html = try scratch.write(Array("<!doctype html><p>not found</p>".utf8), to: "photo.jpg")
        var half = try Corpus.bytes("exif-orientation/Landscape_1.jpg")
        half.removeLast(half.count / 2)
        let cut = try scratch.write(half, to: "cut.jpg")
        let good = try Corpus.path("exif-orientation/Landscape_1.jpg")
        let result = try ProcessRunner.run(binary, ["thumbnail", "--out", out.path, html, cut, good, "/nonexistent/x.png"])
        #expect(result.exitCode == 1)
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 3, "\(result.stderrText)")
        #expect(lines.contains { $0.contains(html) && $0.contains("not an image") })
        #expect(lines.contains { $0.contains(cut) && $0.contains("truncated") })
        #expect(lines.contains { $0.contains("/nonexistent/x.png") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["Landscape_1.jpg"])
    }

    /// The hidden comparison flag (Scripts/bench-dc-scans) takes the plain decode paths: a 4:2:0
    /// progressive file at 1/8 then decodes its chroma AC scans (other chroma, other bytes), while a
    /// 4:4:4 one gives the same pixels either way.
    @Test("--no-fast-paths takes the plain decode paths")
    func noFastPaths() throws {
        let inputs = try ["derived/testorig-progressive.jpg", "jpeg-edge/progressive3.jpg"].map(Corpus.path)
        var made: [[[UInt8]]] = []
        for flags in [[], ["--no-fast-paths"]] {
            let out = try TempDirectory()
            let result = try ProcessRunner.run(binary, ["thumbnail", "--size", "16", "--out", out.path] + flags + inputs)
            #expect(result.exitCode == 0, "\(result.stderrText)")
            made.append([try out.read("testorig-progressive.jpg"), try out.read("progressive3.jpg")])
        }
        #expect(made[0][0] != made[1][0])
        #expect(made[0][1] == made[1][1])
    }

    /// A third input already called `x-2.jpg` gets a name of its own, not the second `x.jpg`'s.
    @Test("same base names in two folders both survive")
    func uniqueNames() throws {
        let out = try TempDirectory()
        let a = try TempDirectory(), b = try TempDirectory()
        let bytes = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let small = try Corpus.bytes("exif-orientation/Landscape_1.jpg")
        let inputs = [try a.write(bytes, to: "x.jpg"), try b.write(bytes, to: "x.jpg"), try a.write(small, to: "x-2.jpg")]
        let result = try ProcessRunner.run(binary, ["thumbnail", "--out", out.path] + inputs)
        #expect(result.exitCode == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["x-2-2.jpg", "x-2.jpg", "x.jpg"])
        #expect(try out.read("x-2.jpg") != out.read("x-2-2.jpg"))
    }

    /// Files before, between and after the options, options' values (`--size 64`, `-o out`, `--out=out`), and
    /// after `--` a file whose name starts with a dash: every file is made, at the size asked, into the folder
    /// asked, and nothing else.
    @Test("files anywhere on the command line, options' values never taken for files")
    func filesAnywhere() throws {
        let work = try TempDirectory()
        let bytes = try Corpus.bytes("exif-orientation/Landscape_1.jpg")
        let (a, b, c) = (try work.write(bytes, to: "a.jpg"), try work.write(bytes, to: "b.jpg"), try work.write(bytes, to: "c.jpg"))
        let dash = try work.write(bytes, to: "-d.jpg")
        var made: [[String]] = []
        for (index, arguments) in [[a, "--size", "64", b, "-o", "out", c, "--jobs", "1", "--", dash],
                                   ["--out=out", a, b, "--size=64", c, "--", dash]].enumerated() {
            try? FileManager.default.removeItem(atPath: work.file("out"))
            let result = try ProcessRunner.run(binary, ["thumbnail"] + arguments, currentDirectory: work.path)
            #expect(result.exitCode == 0, "\(index): \(result.stderrText)")
            made.append(try FileManager.default.contentsOfDirectory(atPath: work.file("out")).sorted())
            let size = try ProcessRunner.run("identify", ["-format", "%w %h", work.file("out/b.jpg")]).stdoutText
            #expect(size.hasPrefix("64 "), "\(index): \(size)")
        }
        #expect(made == [["-d.jpg", "a.jpg", "b.jpg", "c.jpg"], ["-d.jpg", "a.jpg", "b.jpg", "c.jpg"]])
        // An option's value missing at the end is still the parser's usage error, not a file.
        let missing = try ProcessRunner.run(binary, ["thumbnail", a, "--out"], currentDirectory: work.path)
        #expect(missing.exitCode == 2 && missing.stderrText.contains("--out"), "\(missing.stderrText)")
    }

    @Test("--format webp writes WebP for every input, GIF and WebP inputs included")
    func webpOut() throws {
        let out = try TempDirectory()
        let inputs = try ["exif-orientation/Landscape_6.jpg", "png-suite/basn6a08.png", "gif/photo.gif",
                          "webp/exif-orientation-6.webp"].map(Corpus.path)
        let result = try ProcessRunner.run(binary, ["thumbnail", "--format", "webp", "--size", "100", "--out", out.path] + inputs)
        #expect(result.exitCode == 0, "\(result.stderrText)")
        let made = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(made == ["Landscape_6.webp", "basn6a08.webp", "exif-orientation-6.webp", "photo.webp"])
        for name in made {
            let bytes = try out.read(name)
            #expect(bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8), "\(name)")
        }
        // Turned upright: the EXIF-6 WebP (stored 240x360) is shown 360x240, so its thumbnail is 100x67.
        let dims = try ProcessRunner.run("webpinfo", [out.file("exif-orientation-6.webp")]).stdoutText
        #expect(dims.contains("Width: 100") && dims.contains("Height: 67"), "\(dims)")
    }

    @Test("usage errors exit 2", arguments: [["thumbnail", "--out", "/tmp/x"], ["thumbnail", "--out", "/tmp/x", "--size", "0", "a.jpg"],
                                            ["thumbnail", "--out", "/tmp/x", "--format", "bmp", "a.jpg"],
                                            ["thumbnail", "--out", "/tmp/x", "--webp-quality", "101", "a.jpg"]])
    func usage(arguments: [String]) throws {
        let result = try ProcessRunner.run(binary, arguments)
        #expect(result.exitCode == 2, "\(result.exitCode as Any) \(result.stderrText)")
    }
}
