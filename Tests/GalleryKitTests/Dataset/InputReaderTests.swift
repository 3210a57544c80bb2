import Foundation
import GalleryTestSupport
import DatasetFormats
import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// The URL list readers: every format and its .gz, quoting, malformed records failing their own row,
/// missing columns named, shards cut as img2dataset cuts them.
@Suite struct InputReaderTests {
    func gzip(_ text: String, in dir: TempDirectory, name: String) throws -> String {
        let plain = try dir.write(Array(text.utf8), to: name)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["gzip", "-f", plain]
        try p.run()
        p.waitUntilExit()
        return plain + ".gz"
    }

    func rows(_ path: String, _ format: String, columns: DatasetColumns = DatasetColumns(), perShard: Int = 10_000) async throws -> [(Int, [DatasetRow])] {
        let reader = ShardReader(files: [path], format: try DatasetInputFormat(parsing: format), columns: columns, perShard: perShard)
        var shards: [(Int, [DatasetRow])] = []
        while let s = try await reader.next() { shards.append((s.id, s.rows)) }
        return shards
    }

    @Test func csvQuotingAndMalformedLines() async throws {
        let dir = try TempDirectory()
        let csv = #"""
        url,text,n
        http://a/1.jpg,"a, quoted ""caption""",1

        http://a/2.jpg,"two
        http://a/3.jpg,only two
        http://a/4.jpg,"x"y,4
        http://a/5.jpg,last,5
        """#
        let path = try dir.write(Array(csv.utf8), to: "in.csv")
        let cols = DatasetColumns(captionColumn: "text", additional: ["n"])
        let all = try await rows(path, "csv", columns: cols).flatMap(\.1)
        #expect(all.count == 5)
        #expect(all[0].caption == "a, quoted \"caption\"" && all[0].url == "http://a/1.jpg" && all[0].problem == nil)
        #expect(all[1].problem == "malformed CSV line 4: a quoted field is not closed on its line")
        #expect(all[2].problem == "malformed CSV line 5: expected 3 fields, found 2")
        #expect(all[3].problem == "malformed CSV line 6: text after a closing quote")
        #expect(all[4].url == "http://a/5.jpg" && all[4].values == [.string("5"), .string("last"), .string("http://a/5.jpg")])
        #expect(DatasetColumnType.infer(all.map { $0.values[0] }) == .int64)
    }

    @Test func everyFormatAndItsGzipGiveTheSameRows() async throws {
        let dir = try TempDirectory()
        let urls = (0..<25).map { "http://h/\($0).jpg" }
        let texts: [String: String] = [
            "txt": urls.joined(separator: "\n") + "\n",
            "csv": "url,caption\n" + urls.map { "\($0),cap \($0.suffix(6))" }.joined(separator: "\n"),
            "tsv": "url\tcaption\n" + urls.map { "\($0)\tcap \($0.suffix(6))" }.joined(separator: "\r\n"),
            "jsonl": urls.map { #"{"url": "\#($0)", "caption": "cap \#($0.suffix(6))"}"# }.joined(separator: "\n"),
            "json": "[" + urls.map { #"{"url": "\#($0)", "caption": "cap \#($0.suffix(6))"}"# }.joined(separator: ",\n ") + "]",
        ]
        for (format, text) in texts {
            let columns = format == "txt" ? DatasetColumns() : DatasetColumns(captionColumn: "caption")
            let plain = try dir.write(Array(text.utf8), to: "list.\(format)")
            let zipped = try gzip(text, in: dir, name: "z.\(format)")
            for (path, name) in [(plain, format), (zipped, format + ".gz")] {
                let shards = try await rows(path, name, columns: columns, perShard: 10)
                #expect(shards.map(\.0) == [0, 1, 2], "\(name)")
                #expect(shards.map(\.1.count) == [10, 10, 5], "\(name)")
                let all = shards.flatMap(\.1)
                #expect(all.map(\.url) == urls, "\(name)")
                #expect(all.map(\.index) == Array(0..<10) + Array(0..<10) + Array(0..<5), "\(name)")
                if format != "txt" { #expect(all[3].caption == "cap /3.jpg", "\(name)") }
            }
        }
    }

    @Test func malformedJSONRecordsFailTheirRowOnly() async throws {
        let dir = try TempDirectory()
        let jsonl = try dir.write(Array(#"{"url": "http://a/1"}\#n{"url": broken\#n[1,2]\#n{"url": "http://a/4", "k": {"x": 1}}\#n"#.utf8), to: "a.jsonl")
        let l = try await rows(jsonl, "jsonl").flatMap(\.1)
        #expect(l.map(\.problem) == [nil, "malformed JSONL line 2: not valid JSON", "malformed JSONL line 3: not a JSON object", nil])
        let json = try dir.write(Array(#"[{"url": "http://a/1"}, {"url": nope}, 7, {"url": "http://a/\"4]"}]"#.utf8), to: "a.json")
        let j = try await rows(json, "json").flatMap(\.1)
        #expect(j.map(\.problem) == [nil, "malformed JSON record 2: not valid JSON", "malformed JSON record 3: not a JSON object", nil])
        #expect(j[3].url == "http://a/\"4]")
    }

    @Test func aMissingColumnNamesTheColumnsThatExist() async throws {
        let dir = try TempDirectory()
        let path = try dir.write(Array("link,text\nhttp://a,b\n".utf8), to: "in.csv")
        await #expect(throws: DatasetError.missingColumn(path: path, column: "url", available: ["link", "text"])) {
            _ = try await rows(path, "csv")
        }
        #expect("\(DatasetError.missingColumn(path: path, column: "url", available: ["link", "text"]))".hasSuffix("has no column 'url'; its columns are: link, text"))
    }

    @Test func aRowWithoutURLFailsWithItsReason() async throws {
        let dir = try TempDirectory()
        let path = try dir.write(Array(#"{"url": null, "c": 1}\#n{"url": "http://x"}\#n"#.utf8), to: "a.jsonl")
        let r = try await rows(path, "jsonl").flatMap(\.1)
        #expect(r[0].problem?.hasPrefix("no URL in column 'url'") == true && r[1].problem == nil)
    }

    @Test func aFolderIsReadInNameOrderEachFileStartingAShard() async throws {
        let dir = try TempDirectory()
        _ = try dir.write(Array("http://b/1\nhttp://b/2\nhttp://b/3\n".utf8), to: "b.txt")
        _ = try dir.write(Array("http://a/1\n".utf8), to: "a.txt")
        _ = try dir.write(Array("ignored".utf8), to: "c.csv")
        let files = try DatasetInputFormat(kind: .txt).inputFiles(at: dir.path)
        #expect(files.map { ($0 as NSString).lastPathComponent } == ["a.txt", "b.txt"])
        let reader = ShardReader(files: files, format: DatasetInputFormat(kind: .txt), columns: DatasetColumns(), perShard: 2)
        var ids: [Int] = [], counts: [Int] = []
        while let s = try await reader.next() { ids.append(s.id); counts.append(s.rows.count) }
        #expect(ids == [0, 1, 2] && counts == [1, 2, 1])
    }

    /// A `--shard K/N` process reads only the Parquet row groups that hold its own shards' rows; the others'
    /// rows are counted from the footer. 1,000 rows in groups of 100, two files' worth of shard ids.
    @Test func aParquetShardReadsOnlyTheRowGroupsOfItsOwnRows() async throws {
        let dir = try TempDirectory()
        let writer = try ParquetWriter(handle: try LocalFolderSink(folder: dir.path).create("urls.parquet"),
                                       columns: [.init(name: "url", kind: .string), .init(name: "caption", kind: .string)],
                                       maxRowsPerGroup: 100)
        for i in 0..<1000 { try writer.append([.string("http://h/\(i).jpg"), .string("c\(i)")]) }
        try writer.close()
        let format = try DatasetInputFormat(parsing: "parquet")
        var columns = DatasetColumns()
        columns.captionColumn = "caption"
        for (perShard, expectedGroups) in [(100, 5), (150, 6), (1000, 0)] {
            let reader = ShardReader(files: [dir.file("urls.parquet")], format: format, columns: columns, perShard: perShard)
            reader.readsRows = { $0 % 2 == 1 }
            var seen: [(id: Int, rows: [DatasetRow], count: Int)] = []
            while let shard = try await reader.next() { seen.append(shard) }
            let shards = (1000 + perShard - 1) / perShard
            #expect(seen.map(\.id) == Array(0..<shards), "\(perShard)")
            #expect(seen.map(\.count) == (0..<shards).map { min(perShard, 1000 - $0 * perShard) }, "\(perShard)")
            for shard in seen {
                let first = shard.id * perShard
                let wanted = shard.id % 2 == 1 ? (first..<(first + shard.count)).map { "http://h/\($0).jpg" } : []
                #expect(shard.rows.map(\.url) == wanted, "shard \(shard.id) of \(perShard)")
                #expect(shard.rows.map(\.caption) == wanted.indices.map { "c\(first + $0)" }, "shard \(shard.id) of \(perShard)")
            }
            #expect(reader.rowGroupsRead == expectedGroups, "\(perShard) rows a shard: \(reader.rowGroupsRead) row groups read")
        }
    }

    @Test func keysAreImg2datasetKeys() {
        var o = DatasetOptions(urlList: "x")
        #expect(o.key(shard: 1, index: 5) == "000010005" && o.shardName(1) == "00001")
        o.numberSamplePerShard = 100
        #expect(o.key(shard: 12, index: 3) == "0001203")
        o.numberSamplePerShard = 101
        #expect(o.indexDigits == 3)
    }
}
