import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// wds2idx's split of a tar member's name into stem and extension (the first dot of the last path component), on
/// ASCII names by their bytes and on others by their characters, to the same result.
@Suite struct ShardIndexSplitTests {
    @Test(arguments: [
        ("000000001.jpg", "000000001", "jpg"), ("dir/a.b.c", "dir/a", "b.c"), ("d.x/noext", "d.x/noext", ""),
        ("dir/", "dir/", ""), ("a/.jpg", "a/", "jpg"), (".hidden", "", "hidden"), ("ключ/é.jpg", "ключ/é", "jpg"),
        ("d.é/ключ.тест.json", "d.é/ключ", "тест.json"), ("a//b.txt", "a//b", "txt"),
    ])
    func splitsAsWds2idx(name: String, stem: String, ext: String) {
        let split = ShardIndexes.stemAndExtension(name)
        #expect(String(split.stem) == stem)
        #expect(String(split.ext) == ext)
    }

    @Test func theIdxListsEachSampleOnOneLine() {
        let members = [("a/1.jpg", 512, 10), ("a/1.json", 1024, 5), ("a/2.jpg", 2048, 7), ("é.txt", 3072, 1)]
            .map { TarMembers.Member(name: $0.0, offset: $0.1, size: $0.2) }
        let (entry, idx) = ShardIndexes.entry(members, size: 4096, md5: "m", modified: [])
        #expect(entry.samples == 3)
        #expect(idx == "v1.2 3\njpg 512 10 a/1.jpg json 1024 5 a/1.json\njpg 2048 7 a/2.jpg\ntxt 3072 1 é.txt\n")
    }
}
