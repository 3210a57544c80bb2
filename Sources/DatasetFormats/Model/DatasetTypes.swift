/// The layout of a shard, as img2dataset's `--output_format` names it.
public enum DatasetOutputFormat: String, Sendable, CaseIterable {
    /// A folder `NNNNN/` with `KEY.jpg`, `KEY.txt` and `KEY.json` for each success.
    case files
    /// `NNNNN.tar` with the same three members per success, read by `webdataset`.
    case webdataset
    /// `NNNNN.parquet`: the metadata columns and the image bytes in a column named after the encode format.
    case parquet
    /// `NNNNN.tfrecord` of `tf.train.Example` records, one per success.
    case tfrecord
}

/// How Parquet pages are compressed. Snappy is pyarrow's default, and so ours.
public enum ParquetCompression: String, Sendable, CaseIterable {
    case none, snappy, zstd
}

/// A metadata column's type, as img2dataset gives it to pyarrow (`pa.string()`, `pa.int32()`, ...).
public enum MetadataType: Sendable, Equatable {
    case string, int32, int64, double, bool
    /// `list<list<double>>`: boxes, as DataComp's `face_bboxes` (`--bbox-col`) comes and is kept.
    case doubleLists
}

/// One metadata column: img2dataset's name and type, in its order.
public struct MetadataColumn: Sendable, Equatable {
    public var name: String
    public var type: MetadataType

    public init(name: String, type: MetadataType) {
        self.name = name
        self.type = type
    }
}

/// One metadata cell; `.null` is Python's `None` (a Parquet null, JSON `null`, TFRecord `b""`).
public enum MetadataValue: Sendable, Equatable {
    case null
    case string(String)
    case int32(Int32)
    case int64(Int64)
    case double(Double)
    case bool(Bool)
    /// A `list<list<double>>` cell (JSON nested arrays).
    case doubleLists([[Double]])
}

/// One input row of a shard, a success (with `image`) or a failure (without).
public struct DatasetSample: Sendable {
    /// img2dataset's key: the shard id, then the index in the shard (9 digits in all by default).
    public var key: String
    /// One value per schema column, in schema order (`key`, `status`, ... included).
    public var metadata: [MetadataValue]
    /// The encoded image of a success; nil for a failure, which only the metadata Parquet records.
    public var image: [UInt8]?
    /// The `.txt` member; written (empty when nil) only when the shard writer was told `writesCaptions`.
    public var caption: String?

    public init(key: String, metadata: [MetadataValue], image: [UInt8]?, caption: String?) {
        self.key = key
        self.metadata = metadata
        self.image = image
        self.caption = caption
    }
}

/// What `NNNNN_stats.json` records, in img2dataset's keys: `count`, `successes`, `failed_to_download`,
/// `failed_to_resize`, `duration`, `start_time`, `end_time`, `status_dict`.
public struct ShardStats: Sendable {
    public var count: Int
    public var successes: Int
    public var failedToDownload: Int
    public var failedToResize: Int
    /// Rows a site's AI opt-out signal kept out (`opted_out`); written to the stats only when not 0, so a
    /// run without any matches img2dataset's file key for key.
    public var optedOut = 0
    /// Seconds; img2dataset writes `end_time - start_time`.
    public var duration: Double
    /// Unix time in seconds, fractional as Python's `time.time()`.
    public var startTime: Double
    public var endTime: Double
    /// Each status or error message with its count, in the order first seen (Python's Counter order).
    public var statusDict: [(status: String, count: Int)]

    public init(count: Int, successes: Int, failedToDownload: Int, failedToResize: Int,
                startTime: Double, endTime: Double, statusDict: [(status: String, count: Int)]) {
        self.count = count
        self.successes = successes
        self.failedToDownload = failedToDownload
        self.failedToResize = failedToResize
        self.duration = endTime - startTime
        self.startTime = startTime
        self.endTime = endTime
        self.statusDict = statusDict
    }

    /// For callers that count in a dictionary: the counts are written most frequent first, then by name.
    public init(count: Int, successes: Int, failedToDownload: Int, failedToResize: Int,
                startTime: Double, endTime: Double, statusDict: [String: Int]) {
        let ordered = statusDict.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        self.init(count: count, successes: successes, failedToDownload: failedToDownload,
                  failedToResize: failedToResize, startTime: startTime, endTime: endTime,
                  statusDict: ordered.map { (status: $0.key, count: $0.value) })
    }
}
