import Testing
@testable import GalleryServe

/// The URL layer against imgproxy's documentation: the documented signature, both source forms,
/// every supported option, presets, and the refusals that must name what is wrong.
struct ImageURLTests {
    // imgproxy's "Signing a URL" example: key "secret", salt "hello" (hex), and its documented signature.
    static let docKey = "736563726574"
    static let docSalt = "68656C6C6F"
    static let docPath = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
    static let docSignature = "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8"

    @Test func signsImgproxysDocumentedExample() throws {
        let signer = try URLSigner(hexKeys: [Self.docKey], hexSalts: [Self.docSalt])
        #expect(signer.sign(Self.docPath) == Self.docSignature)
    }

    @Test func parsesTheDocumentedSignedURL() throws {
        let parser = ImageURLParser(signer: try URLSigner(hexKeys: [Self.docKey], hexSalts: [Self.docSalt]))
        let url = try parser.parse("/" + Self.docSignature + Self.docPath)
        #expect(url.source == "http://example.com/images/curiosity.jpg")
        #expect(url.options.resizingType == .fill)
        #expect(url.options.width == 300 && url.options.height == 400 && !url.options.enlarge)
        #expect(url.options.gravity.type == .smart)
        #expect(url.options.format == .png)
    }

    @Test func refusesAWrongSignatureAndAcceptsARotatedKey() throws {
        let old = try URLSigner(hexKeys: ["aa11"], hexSalts: ["bb22"])
        let rotated = try URLSigner(hexKeys: [Self.docKey, "aa11"], hexSalts: [Self.docSalt, "bb22"])
        let parser = ImageURLParser(signer: rotated)
        let path = "/w:10/plain/http://example.com/a.jpg"
        #expect(try parser.parse("/" + old.sign(path) + path).options.width == 10)
        #expect(try parser.parse("/" + rotated.sign(path) + path).options.width == 10)
        #expect(throws: ServeError.self) { try parser.parse("/" + old.sign(path) + "/w:11/plain/http://example.com/a.jpg") }
        do {
            _ = try parser.parse("/insecure" + path)
            Issue.record("an unsigned URL was accepted with a key set")
        } catch { #expect(error.status == 403) }
    }

    @Test func acceptsAnySignatureWithoutAKey() throws {
        let parser = ImageURLParser()
        #expect(try parser.parse("/insecure/plain/http://example.com/a.jpg").source == "http://example.com/a.jpg")
        #expect(try parser.parse("/_/w:5/plain/local:///a%20b.png@webp").options.format == .webp)
        #expect(try parser.parse("/_/w:5/plain/local:///a%20b.png@webp").source == "local:///a b.png")
    }

    @Test func readsEveryOption() throws {
        let url = try ImageURLParser().parse(
            "/x/rs:force:100:50:1/g:soea:3:4/q:70/f:avif/dpr:2/ar:1/bl:1.5/plain/http://h/p.jpg")
        let o = url.options
        #expect(o.resizingType == .force && o.width == 100 && o.height == 50 && o.enlarge)
        #expect(o.gravity == ProcessingOptions.Gravity(type: .southEast, x: 3, y: 4))
        #expect(o.quality == 70 && o.format == .avif && o.dpr == 2 && o.blur == 1.5)
        #expect(o.scaledWidth == 200 && o.scaledHeight == 100)
        let long = try ImageURLParser().parse(
            "/x/resize:fill-down:10:20/resizing_type:auto/width:30/height:40/gravity:no/quality:5/format:webp/enlarge:True/blur:2/plain/http://h/p.jpg")
        #expect(long.options.resizingType == .auto && long.options.width == 30 && long.options.height == 40)
        #expect(long.options.gravity.type == .north && long.options.quality == 5 && long.options.format == .webp)
        #expect(long.options.enlarge && long.options.blur == 2)
        #expect(try ImageURLParser().parse("/x/s:7:8/plain/http://h/p.jpg").options.width == 7)
    }

    @Test func namesTheOptionItDoesNotSupport() {
        for (path, named) in [("/x/sharpen:1/plain/http://h/a.jpg", "sharpen"), ("/x/rs:crop:1:1/plain/http://h/a.jpg", "crop"),
                              ("/x/q:101/plain/http://h/a.jpg", "q:101"), ("/x/g:middle/plain/http://h/a.jpg", "middle"),
                              ("/x/w:1/plain/http://h/a.jpg@tiff", "tiff"), ("/x/ar:0/plain/http://h/a.jpg", "auto_rotate")] {
            do {
                _ = try ImageURLParser().parse(path)
                Issue.record("\(path) was accepted")
            } catch {
                #expect(error.status == 400)
                #expect(error.message.contains(named), "\(error.message) does not name \(named)")
            }
        }
    }

    @Test func appliesPresetsAndPresetsOnlyMode() throws {
        var presets = Presets()
        try presets.add(imgproxyList: "default=q:60,thumb=rs:fill:64:64/f:webp")
        try presets.add("big=w:900")
        let url = try ImageURLParser(presets: presets).parse("/x/pr:thumb/w:32/plain/http://h/a.jpg")
        #expect(url.options.quality == 60 && url.options.resizingType == .fill)
        #expect(url.options.width == 32 && url.options.height == 64 && url.options.format == .webp)
        let only = ImageURLParser(presets: presets, onlyPresets: true)
        #expect(try only.parse("/x/thumb:big/plain/http://h/a.jpg").options.width == 900)
        #expect(throws: ServeError.self) { try only.parse("/x/nope/plain/http://h/a.jpg") }
        #expect(throws: ServeError.self) { try ImageURLParser(presets: presets).parse("/x/pr:nope/plain/http://h/a.jpg") }
        var bad = Presets()
        #expect(throws: ServeError.self) { try bad.add("broken=zoom:2") }
    }

    @Test func spellingsNormaliseToOneKey() throws {
        let a = try ImageURLParser().parse("/x/rs:fit:300:200/plain/http://h/a.jpg").options
        let b = try ImageURLParser().parse("/x/h:200/w:300/rt:fit/plain/http://h/a.jpg").options
        let c = try ImageURLParser().parse("/x/w:150/h:100/dpr:2/plain/http://h/a.jpg").options
        #expect(a.normalized == b.normalized && a.normalized == c.normalized)
        #expect(a.normalized != (try ImageURLParser().parse("/x/w:301/h:200/plain/http://h/a.jpg").options.normalized))
    }

    @Test func base64RoundTrips() {
        for text in ["", "a", "ab", "abc", "abcd", "http://example.com/images/curiosity.jpg"] {
            #expect(Base64URL.decode(Base64URL.encode(Array(text.utf8))) == Array(text.utf8))
        }
    }
}
