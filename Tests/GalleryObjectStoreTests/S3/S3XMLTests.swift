import Testing
@testable import GalleryObjectStore

/// The small XML reader on S3's documents and on broken ones.
@Suite struct S3XMLTests {
    @Test func readsAListingWithEntitiesNamespacesAndEmptyElements() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment -->
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><Prefix/>
            <IsTruncated>true</IsTruncated><NextContinuationToken>1/a+b==</NextContinuationToken>
            <Contents><Key>a &amp; b/&lt;1&gt; &#233;&#x20AC;.jpg</Key><ETag>&quot;abc&quot;</ETag><Size>12</Size></Contents>
            <Contents><Key><![CDATA[x<y>&z]]></Key><Size>0</Size></Contents>
            <s3:Owner a="1>2"><s3:ID>me</s3:ID></s3:Owner></ListBucketResult>
            """
        let root = try S3XML.parse(Array(text.utf8))
        #expect(root.name == "ListBucketResult" && root.value("Prefix") == "")
        #expect(root.value("NextContinuationToken") == "1/a+b==")
        let contents = root.children("Contents")
        #expect(contents.map { $0.value("Key") } == ["a & b/<1> é€.jpg", "x<y>&z"])
        #expect(contents[0].value("ETag") == "\"abc\"")
        #expect(root.child("Owner")?.value("ID") == "me")
    }

    @Test(arguments: [
        ("", "no root element"),
        ("<a><b></a>", "</a> closes <b>"),
        ("<a><b>", "ends inside <b>"),
        ("<a>&bogus;</a>", "unknown entity &bogus;"),
        ("<a>&amp</a>", "unterminated entity"),
        ("<a><!-- open", "'-->' missing"),
        ("<a", "not closed"),
    ])
    func refusesBrokenDocuments(text: String, reason: String) {
        #expect {
            _ = try S3XML.parse(Array(text.utf8))
        } throws: { error in
            (error as? S3XML.ParseError)?.reason.contains(reason) == true
        }
    }
}
