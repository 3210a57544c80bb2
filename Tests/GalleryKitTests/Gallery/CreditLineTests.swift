import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The credit line: linked where the source gave http(s) links, escaped everywhere.
@Suite struct CreditLineTests {
    @Test func fullLineLinksAuthorServiceLicenceAndPage() {
        let meta = PhotoMetadata(id: 1, name: "x", credit: PhotoCredit(
            author: "Ann", authorURL: "https://unsplash.com/@ann?utm_source=fetch-gallery&utm_medium=referral",
            licence: "Unsplash License", licenceURL: "https://unsplash.com/license", pageURL: "https://unsplash.com/photos/x",
            service: "Unsplash", serviceURL: "https://unsplash.com/"))
        let html = CreditLine.full(meta).render()
        #expect(html.contains(#"Photo by <a href="https://unsplash.com/@ann?utm_source=fetch-gallery&amp;utm_medium=referral""#))
        #expect(html.contains(#"on <a href="https://unsplash.com/" rel="noopener noreferrer"><bdi>Unsplash</bdi></a>"#))
        #expect(html.contains(#"<a href="https://unsplash.com/license""#) && html.contains(#"href="https://unsplash.com/photos/x""#))
    }

    @Test func hostileTextIsEscapedAndUnsafeLinksDropped() {
        let meta = PhotoMetadata(id: 1, name: "x", credit: PhotoCredit(
            author: #"<script>alert(1)</script>""#, authorURL: "javascript:alert(2)", licence: "<b>CC</b>",
            licenceURL: "data:text/html,x", pageURL: "file:///etc/passwd", service: "S"))
        let html = CreditLine.full(meta).render() + CreditLine.short(meta).render()
        #expect(!html.contains("<script>") && !html.contains("<b>CC"))
        #expect(!html.contains("javascript:") && !html.contains("data:") && !html.contains("file:"))
        #expect(html.contains("&lt;script&gt;"))
    }

    @Test func withoutCreditThePhotographerIsShown() {
        let meta = PhotoMetadata(id: 1, name: "x", photographer: "bob")
        #expect(CreditLine.full(meta).render().contains("By <bdi>bob</bdi>"))
        #expect(CreditLine.short(meta).render() == "<bdi>bob</bdi>")
    }
}
