@testable import DatasetFormats
import Foundation
import Testing

/// Whole shards of every format, as img2dataset lays them out, read by the readers users run.
@Suite struct DatasetShardWriterTests {
    static let count = 12  // rows 2, 5, 8, 11 fail (to download, to resize, alternately)
    static let stats = ShardStats(count: count, successes: 8, failedToDownload: 2, failedToResize: 2,
                                  startTime: 1_764_255_600.25, endTime: 1_764_255_603.75,
                                  statusDict: [(status: "success", count: 8), (status: "HTTP Error 404: Not Found", count: 2),
                                               (status: "image too small", count: 2)])
    static let img2datasetTypes = [["url", "string"], ["caption", "string"], ["license", "string"], ["key", "string"],
                                   ["status", "string"], ["error_message", "string"], ["width", "int32"], ["height", "int32"],
                                   ["original_width", "int32"], ["original_height", "int32"], ["exif", "string"],
                                   ["sha256", "string"]]

    static func writeShard(_ format: DatasetOutputFormat, in folder: TemporaryFolder, rows: Int = count,
                           failures: Bool = true, captions: Bool = true) throws {
        let writer = try DatasetShardWriter(sink: try LocalFolderSink(folder: folder.path), shardName: "00000",
                                            format: format, schema: SampleData.schema, imageExtension: "jpg",
                                            writesCaptions: captions)
        for i in 0..<rows { try writer.write(SampleData.sample(i, failures: failures)) }
        try writer.finish(stats: stats)
    }

    static var samples: [DatasetSample] { (0..<count).map { SampleData.sample($0) } }
    static var successes: [(index: Int, sample: DatasetSample)] {
        samples.enumerated().filter { $0.element.image != nil }.map { ($0.offset, $0.element) }
    }

    /// The metadata Parquet (every row, failures included) read by pyarrow, fastparquet and duckdb.
    static func checkMetadata(_ path: String, imageColumn: Bool = false) throws {
        let read = try PythonReader.run(["parquet", path])
        let types = img2datasetTypes + (imageColumn ? [["jpg", "binary"]] : [])
        #expect(Canonical.text(read["schema"]) == Canonical.text(types))
        let rows = samples.map { sample -> [Any] in
            sample.metadata.map(SampleData.jsonValue) + (imageColumn ? [sample.image.map { Canonical.binary($0) as Any } ?? NSNull()] : [])
        }
        for reader in ["rows", "fastparquet_rows", "duckdb_rows"] {
            #expect(Canonical.text(read[reader]) == Canonical.text(rows), "\(reader)")
        }
    }

    @Test(arguments: DatasetOutputFormat.allCases)
    func layoutMetadataAndStats(format: DatasetOutputFormat) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.writeShard(format, in: folder)
        let names: [String] = switch format {
        case .files: ["00000", "00000.parquet", "00000_stats.json"]
        case .webdataset: ["00000.parquet", "00000.tar", "00000_stats.json"]
        case .parquet: ["00000.parquet", "00000_stats.json"]
        case .tfrecord: ["00000.parquet", "00000.tfrecord", "00000_stats.json"]
        }
        #expect(folder.names() == names)
        try Self.checkMetadata(folder.file("00000.parquet"), imageColumn: format == .parquet)
        let stats = try String(contentsOfFile: folder.file("00000_stats.json"), encoding: .utf8)
        #expect(stats == SampleEncoding.stats(Self.stats))
        #expect(stats.hasPrefix("{\n    \"count\": 12,\n    \"successes\": 8,\n    \"failed_to_download\": 2,\n"))
        #expect(stats.contains("\n    \"duration\": 3.5,\n    \"start_time\": 1764255600.25,\n"))
    }

    @Test func filesFolderHoldsEachSuccessAsPythonWritesIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.writeShard(.files, in: folder)
        let inner = try FileManager.default.contentsOfDirectory(atPath: folder.file("00000")).sorted()
        #expect(inner == Self.successes.flatMap { ["\($0.sample.key).jpg", "\($0.sample.key).json", "\($0.sample.key).txt"] })
        for (_, sample) in Self.successes {
            let base = folder.file("00000/\(sample.key)")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: base + ".jpg"))) == sample.image)
            #expect(try String(contentsOfFile: base + ".txt", encoding: .utf8) == (sample.caption ?? ""))
            let specFile = folder.file("spec-\(sample.key).json")
            try JSONSerialization.data(withJSONObject: ["object": SampleData.pairs(sample.metadata)])
                .write(to: URL(fileURLWithPath: specFile))
            let python = try #require(try PythonReader.run(["json-dumps", specFile])["text"] as? String)
            #expect(try String(contentsOfFile: base + ".json", encoding: .utf8) == python)
        }
    }

    @Test func webdatasetYieldsEveryKeyWithImageCaptionAndJSON() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.writeShard(.webdataset, in: folder)
        let read = try PythonReader.run(["webdataset", folder.file("00000.tar")])
        #expect(read["members"] as? [String] == Self.successes.flatMap {
            ["\($0.sample.key).jpg", "\($0.sample.key).json", "\($0.sample.key).txt"]
        })
        let samples = try #require(read["samples"] as? [[String: Any]])
        #expect(samples.count == Self.successes.count)
        for ((index, sample), got) in zip(Self.successes, samples) {
            #expect(got["key"] as? String == sample.key)
            #expect(got["extensions"] as? [String] == ["jpg", "json", "txt"])
            let photo = SampleData.photos[index % SampleData.photos.count]
            #expect(got["image_size"] as? [Int] == [photo.width, photo.height])
            #expect(got["txt"] as? String == (sample.caption ?? ""))
            let json = Dictionary(uniqueKeysWithValues: SampleData.pairs(sample.metadata).map { ($0[0] as! String, $0[1]) })
            #expect(Canonical.text(got["json"]) == Canonical.text(json))
        }
    }

    @Test func huggingFaceDatasetsLoadsWebdatasetAndParquetOffline() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let tars = try TemporaryFolder()
        defer { tars.remove() }
        try Self.writeShard(.webdataset, in: tars)
        try Self.writeShard(.parquet, in: folder)
        let cache = folder.file("hf-cache")
        let web = try PythonReader.run(["hf-webdataset", tars.file("00000.tar"), cache])
        let webRows = try #require(web["rows"] as? [[String: Any]])
        #expect(webRows.map { $0["__key__"] as? String } == Self.successes.map { $0.sample.key })
        #expect(webRows.map { $0["txt"] as? String } == Self.successes.map { $0.sample.caption ?? "" })
        #expect(webRows.map { ($0["jpg"] as? [String: Any])?["image_size"] as? [Int] }
                == Self.successes.map { [SampleData.photos[$0.index % 4].width, SampleData.photos[$0.index % 4].height] })
        #expect(webRows.map { ($0["json"] as? [String: Any])?["status"] as? String } == Array(repeating: "success", count: 8))

        let table = try PythonReader.run(["hf-parquet", folder.file("00000.parquet"), cache])
        let rows = try #require(table["rows"] as? [[String: Any]])
        #expect(rows.map { $0["key"] as? String } == Self.samples.map { $0.key })
        #expect(Canonical.text(rows.map { $0["jpg"] }) == Canonical.text(Self.samples.map { $0.image.map { Canonical.binary($0) as Any } ?? NSNull() }))
        #expect(Canonical.text(rows.map { $0["width"] }) == Canonical.text(Self.samples.map { SampleData.jsonValue($0.metadata[6]) }))
        #expect((table["features"] as? [String: String])?["width"]?.contains("int32") == true)
    }

    @Test func tfrecordHoldsImg2datasetsFeatures() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.writeShard(.tfrecord, in: folder)
        var description = ["key": "byte", "jpg": "byte", "txt": "byte"]
        for column in SampleData.schema { description[column.name] = column.type == .int32 ? "int" : "byte" }
        let descriptionText = String(decoding: try JSONSerialization.data(withJSONObject: description), as: UTF8.self)
        let read = try PythonReader.run(["tfrecord", folder.file("00000.tfrecord"), descriptionText])
        #expect(read["frames"] as? Int == Self.successes.count)
        let records = try #require(read["records"] as? [[String: Any]])
        for ((_, sample), record) in zip(Self.successes, records) {
            #expect((record["key"] as? [String: Any])?["text"] as? String == sample.key)
            #expect(Canonical.text((record["jpg"] as? [String: Any])?.filter { $0.key != "text" })
                    == Canonical.text(Canonical.binary(sample.image!)))
            #expect((record["txt"] as? [String: Any])?["text"] as? String == (sample.caption ?? ""))
            for (column, value) in zip(SampleData.schema, sample.metadata) {
                switch value {
                case .int32(let number): #expect(record[column.name] as? [Int] == [Int(number)], "\(column.name)")
                case .string(let text): #expect((record[column.name] as? [String: Any])?["text"] as? String == text)
                case .null: #expect((record[column.name] as? [String: Any])?["len"] as? Int == 0, "\(column.name): None is b\"\"")
                default: Issue.record("unexpected value \(value)")
                }
            }
        }
    }

    @Test(arguments: DatasetOutputFormat.allCases)
    func shardWithoutSuccessesIsStillComplete(format: DatasetOutputFormat) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = try DatasetShardWriter(sink: try LocalFolderSink(folder: folder.path), shardName: "00007",
                                            format: format, schema: SampleData.schema, imageExtension: "jpg",
                                            writesCaptions: false)
        for i in 0..<5 {
            var sample = SampleData.sample(i)
            sample.image = nil
            try writer.write(sample)
        }
        try writer.finish(stats: Self.stats)
        #expect(folder.names().contains("00007_stats.json"))
        let read = try PythonReader.run(["parquet-count", folder.file("00007.parquet")])
        #expect(read["pyarrow"] as? Int == 5 && read["fastparquet"] as? Int == 5 && read["duckdb"] as? Int == 5)
        switch format {
        case .webdataset:
            let tar = try PythonReader.run(["webdataset", folder.file("00007.tar")])
            #expect((tar["samples"] as? [Any])?.isEmpty == true)
        case .tfrecord:
            #expect(try PythonReader.run(["tfrecord", folder.file("00007.tfrecord"), #"{"key": "byte"}"#])["frames"] as? Int == 0)
        case .files:
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("00007")).isEmpty)
        case .parquet:
            break
        }
    }

    @Test(arguments: DatasetOutputFormat.allCases)
    func anUnfinishedShardLeavesNoFinishedLookingFile(format: DatasetOutputFormat) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        do {
            let writer = try DatasetShardWriter(sink: try LocalFolderSink(folder: folder.path), shardName: "00003",
                                                format: format, schema: SampleData.schema, imageExtension: "jpg",
                                                writesCaptions: true)
            for i in 0..<150 { try writer.write(SampleData.sample(i)) }
            withExtendedLifetime(writer) {
                #expect(folder.names().contains { $0.hasSuffix(".part") })  // written meanwhile, under temporary names
            }
        }
        let left = folder.names().filter { $0 != "00003" }
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(!DatasetShardWriter.isComplete("00003", in: try LocalFolderSink(folder: folder.path)))
    }

    @Test func aKilledShardIsRemovedWholeAndWrittenAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try LocalFolderSink(folder: folder.path)
        try Self.writeShard(.files, in: folder)
        try Self.writeShard(.webdataset, in: folder)
        // What a killed run leaves: .part files beside finished ones, and an unrelated shard.
        for name in ["00000.tar.part", "00000.parquet.part", "00000/000000000.jpg.part", "00001.tar"] {
            _ = FileManager.default.createFile(atPath: folder.file(name), contents: Data([1]))
        }
        #expect(DatasetShardWriter.isComplete("00000", in: sink))
        DatasetShardWriter.removeShard("00000", from: sink)
        #expect(folder.names() == ["00001.tar"])
        #expect(!DatasetShardWriter.isComplete("00000", in: sink))
        try Self.writeShard(.tfrecord, in: folder)
        #expect(folder.names() == ["00000.parquet", "00000.tfrecord", "00000_stats.json", "00001.tar"])
        #expect(DatasetShardWriter.isComplete("00000", in: sink))
    }

    @Test func badRowsAndSchemasAreRefusedWithTheirReason() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try LocalFolderSink(folder: folder.path)
        let writer = try DatasetShardWriter(sink: sink, shardName: "00001", format: .webdataset, schema: SampleData.schema,
                                            imageExtension: "jpg", writesCaptions: true)
        var short = SampleData.sample(0)
        short.metadata.removeLast()
        #expect(throws: DatasetFormatError.schemaMismatch(file: "00001.parquet",
                                                          reason: "sample 000000000 has 11 metadata values for 12 columns")) {
            try writer.write(short)
        }
        var wrong = SampleData.sample(1)
        wrong.metadata[6] = .string("256")
        #expect(throws: DatasetFormatError.schemaMismatch(file: "00001.parquet", reason: "column 'width' is int32, not string(\"256\")")) {
            try writer.write(wrong)
        }
        try writer.write(SampleData.sample(3))
        try writer.finish(stats: Self.stats)
        #expect(throws: DatasetFormatError.closed(file: "00001.parquet")) { try writer.write(SampleData.sample(4)) }
        let read = try PythonReader.run(["webdataset", folder.file("00001.tar")])
        #expect((read["samples"] as? [[String: Any]])?.map { $0["key"] as? String } == ["000000003"])

        #expect(throws: DatasetFormatError.invalidSchema("image extension 'gif' is not one of jpg, png, webp, avif")) {
            _ = try DatasetShardWriter(sink: sink, shardName: "00002", format: .files, schema: SampleData.schema,
                                       imageExtension: "gif", writesCaptions: false)
        }
        #expect(throws: DatasetFormatError.invalidName("../escape")) {
            _ = try DatasetShardWriter(sink: sink, shardName: "../escape", format: .webdataset, schema: SampleData.schema,
                                       imageExtension: "jpg", writesCaptions: false)
        }
    }

    @Test func membersFollowWebdatasetsSortedOrderForEachEncodeFormat() {
        #expect(SampleEncoding.memberOrder(imageExtension: "jpg", caption: true) == ["jpg", "json", "txt"])
        #expect(SampleEncoding.memberOrder(imageExtension: "png", caption: true) == ["json", "png", "txt"])
        #expect(SampleEncoding.memberOrder(imageExtension: "webp", caption: true) == ["json", "txt", "webp"])
        #expect(SampleEncoding.memberOrder(imageExtension: "avif", caption: false) == ["avif", "json"])
    }
}
