import Testing
@testable import GalleryTransfer

@Suite struct URLPartsTests {
    @Test func splitsAbsoluteURLs() throws {
        let p = try #require(URLParts("HTTPS://user:pw@Example.COM:8443/a/b%20c.jpg?x=1#top"))
        #expect(p.scheme == "https" && p.authority == "example.com:8443" && p.path == "/a/b%20c.jpg")
        #expect(URLParts("http://127.0.0.1:80")?.path == "")
        #expect(URLParts("http://h?q")?.authority == "h")
    }

    @Test(arguments: ["not a url", "://host/x", "http:/host/x", "1http://h/", ""])
    func rejectsNonURLs(_ text: String) {
        #expect(URLParts(text) == nil)
    }

    @Test(arguments: ["http://", "http://:80/x", "https://?q"])
    func requestsNeedAHost(_ text: String) {
        #expect(throws: TransferError.self) { try HTTPRequest(url: text).checked() }
        #expect(URLParts("file:///etc/passwd")?.authority == "")
    }

    @Test func percentDecoding() {
        #expect(URLParts.percentDecoded("caf%C3%A9%2Fx%zz%4") == "café/x%zz%4")
        #expect(URLParts.percentDecoded("plain") == "plain")
    }

    @Test func hostKeyGroupsByAuthority() {
        #expect(TransferEngine.hostKey("http://A.example:81/x") == TransferEngine.hostKey("http://a.example:81/y"))
        #expect(TransferEngine.hostKey("http://a.example:81/x") != TransferEngine.hostKey("http://a.example:82/x"))
    }
}
