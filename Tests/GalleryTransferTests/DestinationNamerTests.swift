import Testing
@testable import GalleryTransfer

@Suite struct DestinationNamerTests {
    @Test(arguments: [
        ("http://h/a/b/photo.jpg?x=1#f", "photo.jpg"),
        ("http://h/a/%2E%2E", "_."),
        ("http://h/..", "_."),
        ("http://h/a/..%2F..%2Fetc%2Fpasswd", "_._.._etc_passwd"),
        ("http://h/", "download"),
        ("http://h/.hidden", "_hidden"),
        ("http://h/caf%C3%A9.png", "café.png"),
        ("http://h/x.jpg.part", "x.jpg.part_"),
    ])
    func sanitises(_ url: String, _ expected: String) {
        var namer = DestinationNamer()
        let name = namer.name(for: url)
        #expect(name == expected)
        #expect(!name.contains("/") && name != ".." && name != ".")
    }

    @Test func repeatsGetSuffixes() {
        var namer = DestinationNamer()
        let names = ["http://a/x.jpg", "http://b/x.jpg", "http://c/x.jpg", "http://a/y", "http://b/y"].map { namer.name(for: $0) }
        #expect(names == ["x.jpg", "x-2.jpg", "x-3.jpg", "y", "y-2"])
    }

    @Test func aSuffixTakenByALiteralNameIsSkipped() {
        var namer = DestinationNamer()
        let urls = ["http://a/x.jpg", "http://b/x-2.jpg", "http://c/x.jpg", "http://d/x.jpg", "http://e/x-4.jpg"]
        #expect(urls.map { namer.name(for: $0) } == ["x.jpg", "x-2.jpg", "x-3.jpg", "x-4.jpg", "x-4-2.jpg"])
    }

    /// A list of many URLs sharing one last component (`.../image.jpg?id=N`) gets unique names without
    /// starting the count from 2 for every repeat (that was quadratic in the number of repeats).
    @Test func manyRepeatsOfOneNameStayUniqueAndInOrder() {
        var namer = DestinationNamer()
        let names = (0..<20_000).map { namer.name(for: "http://h/image.jpg?id=\($0)") }
        #expect(Set(names).count == names.count)
        #expect(names[0] == "image.jpg" && names[1] == "image-2.jpg" && names[19_999] == "image-20000.jpg")
    }

    @Test func urlListSkipsBlanksAndComments() {
        let text = "# photos\nhttp://a/1.jpg\n\n   \n  http://a/2.jpg  \r\n#http://a/3.jpg\n"
        #expect(URLList.parse(text) == ["http://a/1.jpg", "http://a/2.jpg"])
    }
}
