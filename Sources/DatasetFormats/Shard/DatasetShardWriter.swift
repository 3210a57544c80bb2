/// One shard of any output format, laid out as img2dataset 1.47 lays it out:
///
/// - `files`: a folder `NNNNN/` with `KEY.<ext>`, `KEY.txt` (when captions are written) and `KEY.json`;
/// - `webdataset`: `NNNNN.tar` with the same members, consecutive and in webdataset's (sorted) order;
/// - `parquet`: `NNNNN.parquet` holds the metadata and the image bytes in a column named after `<ext>`;
/// - `tfrecord`: `NNNNN.tfrecord` of `tf.train.Example`s;
///
/// and, for every format, the metadata `NNNNN.parquet` with every input row (failures included) and
/// `NNNNN_stats.json`, written last by `finish(stats:)`: a shard is done when its stats file exists.
/// Every file appears under its name only when complete (the sink writes and renames).
public final class DatasetShardWriter {
    public let sink: any DatasetSink
    public let shardName: String
    public let format: DatasetOutputFormat
    public let schema: [MetadataColumn]
    public let imageExtension: String
    public let writesCaptions: Bool

    private let metadata: ParquetWriter
    private var tar: TarWriter?
    private var tfrecord: TFRecordWriter?
    private var finished = false

    /// The encode formats img2dataset names (`--encode_format`), and ours (avif).
    public static let imageExtensions: Set<String> = ["jpg", "png", "webp", "avif"]

    public init(sink: any DatasetSink, shardName: String, format: DatasetOutputFormat, schema: [MetadataColumn],
                imageExtension: String, writesCaptions: Bool,
                compression: ParquetCompression = .snappy) throws(DatasetFormatError) {
        guard Self.imageExtensions.contains(imageExtension) else {
            throw .invalidSchema("image extension '\(imageExtension)' is not one of jpg, png, webp, avif")
        }
        if format == .parquet && schema.contains(where: { $0.name == imageExtension }) {
            throw .invalidSchema("a metadata column is named '\(imageExtension)', the parquet format's image column")
        }
        self.sink = sink
        self.shardName = try validatedRelativeName(shardName)
        self.format = format
        self.schema = schema
        self.imageExtension = imageExtension
        self.writesCaptions = writesCaptions
        var columns = schema.map { ParquetColumn(name: $0.name, kind: $0.type.parquetKind) }
        if format == .parquet { columns.append(ParquetColumn(name: imageExtension, kind: .binary)) }
        switch format {
        case .files: try sink.makeFolder(shardName)
        case .webdataset: tar = TarWriter(handle: try sink.create("\(shardName).tar"))
        case .tfrecord: tfrecord = TFRecordWriter(handle: try sink.create("\(shardName).tfrecord"))
        case .parquet: break
        }
        // img2dataset's BufferedParquetWriter writes a row group every 100 rows; with images in the rows
        // (the parquet format) a group is also cut at 32 MiB, so a shard of large photos is never held whole.
        metadata = try ParquetWriter(handle: try sink.create("\(shardName).parquet"), columns: columns,
                                     compression: compression, maxRowsPerGroup: 100, maxBytesPerGroup: 32 << 20)
    }

    /// Writes one input row: its image files or members when it is a success, its metadata row always.
    public func write(_ sample: DatasetSample) throws(DatasetFormatError) {
        guard !finished else { throw .closed(file: "\(shardName).parquet") }
        guard sample.metadata.count == schema.count else {
            throw .schemaMismatch(file: "\(shardName).parquet",
                                  reason: "sample \(sample.key) has \(sample.metadata.count) metadata values for \(schema.count) columns")
        }
        var row = sample.metadata.map(\.parquetValue)
        if format == .parquet { row.append(sample.image.map(ParquetValue.binary) ?? .null) }
        // The row is checked against the schema before any image is written, so a bad row leaves nothing behind.
        try metadata.append(row)
        guard let image = sample.image else { return }
        let caption = writesCaptions ? (sample.caption ?? "") : nil
        switch format {
        case .files:
            try writeFile("\(shardName)/\(sample.key).\(imageExtension)", image)
            if let caption { try writeFile("\(shardName)/\(sample.key).txt", Array(caption.utf8)) }
            try writeFile("\(shardName)/\(sample.key).json", Array(SampleEncoding.json(schema, sample.metadata).utf8))
        case .webdataset:
            let json = Array(SampleEncoding.json(schema, sample.metadata).utf8)
            for member in SampleEncoding.memberOrder(imageExtension: imageExtension, caption: caption != nil) {
                switch member {
                case "json": try tar!.add("\(sample.key).json", json)
                case "txt": try tar!.add("\(sample.key).txt", Array(caption!.utf8))
                default: try tar!.add("\(sample.key).\(imageExtension)", image)
                }
            }
        case .tfrecord:
            try tfrecord!.write(SampleEncoding.example(key: sample.key, image: image, imageExtension: imageExtension,
                                                       caption: caption, schema: schema, metadata: sample.metadata))
        case .parquet:
            break
        }
    }

    /// Closes the shard's files, then writes `NNNNN_stats.json`, last.
    public func finish(stats: ShardStats) throws(DatasetFormatError) {
        guard !finished else { throw .closed(file: "\(shardName)_stats.json") }
        finished = true
        try tar?.close()
        try tfrecord?.close()
        try metadata.close()
        try writeFile("\(shardName)_stats.json", Array(SampleEncoding.stats(stats).utf8))
    }

    /// Closes the shard's files with the `rows` samples written so far, then writes `NNNNN_partial.json`, last:
    /// a run stopped on purpose (Ctrl-C, SIGTERM) leaves a shard the next run completes, fetching only the
    /// rows it does not hold. The shard is not done (no stats file): every reader of finished shards skips it.
    public func finishPartial(rows: Int) throws(DatasetFormatError) {
        guard !finished else { throw .closed(file: "\(shardName)_partial.json") }
        finished = true
        try tar?.close()
        try tfrecord?.close()
        try metadata.close()
        try writeFile(Self.partialName(shardName), Array("{\"count\": \(rows)}".utf8))
    }

    private func writeFile(_ name: String, _ bytes: [UInt8]) throws(DatasetFormatError) {
        let handle = try sink.create(name)
        try handle.write(bytes)
        try handle.close()
    }
}

extension MetadataType {
    var parquetKind: ParquetColumn.Kind {
        switch self {
        case .string: return .string
        case .int32: return .int32
        case .int64: return .int64
        case .double: return .double
        case .bool: return .bool
        case .doubleLists: return .doubleLists
        }
    }
}

extension MetadataValue {
    var parquetValue: ParquetValue {
        switch self {
        case .null: return .null
        case .string(let text): return .string(text)
        case .int32(let number): return .int32(number)
        case .int64(let number): return .int64(number)
        case .double(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .doubleLists(let lists): return .doubleLists(lists)
        }
    }
}
