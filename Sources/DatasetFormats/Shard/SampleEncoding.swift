/// What img2dataset 1.47's writer.py makes of one sample's metadata, and logger.py of a shard's stats.
enum SampleEncoding {
    /// `json.dumps(meta, indent=4)`: the metadata in schema order.
    static func json(_ schema: [MetadataColumn], _ values: [MetadataValue]) -> String {
        PythonJSON.dumps(.object(zip(schema, values).map { ($0.name, $1.json) }))
    }

    /// webdataset's TarWriter writes a sample's members in sorted extension order: `jpg json txt`,
    /// `json png txt`, `json txt webp`, `avif json txt`.
    static func memberOrder(imageExtension: String, caption: Bool) -> [String] {
        ([imageExtension, "json"] + (caption ? ["txt"] : [])).sorted()
    }

    /// TFRecordSampleWriter's Example: `key`, the image under the encode format's name, `txt` when captions
    /// are saved, then each metadata column: ints (and bools, which Python counts as ints) as int64_list,
    /// floats as float_list, strings as bytes_list, None as bytes_list [b""].
    static func example(key: String, image: [UInt8], imageExtension: String, caption: String?,
                        schema: [MetadataColumn], metadata: [MetadataValue]) -> TFExample {
        var features: [(name: String, feature: TFFeature)] = [
            ("key", .bytes([Array(key.utf8)])),
            (imageExtension, .bytes([image])),
        ]
        if let caption { features.append(("txt", .bytes([Array(caption.utf8)]))) }
        for (column, value) in zip(schema, metadata) {
            let feature: TFFeature
            switch value {
            case .null: feature = .bytes([[]])
            case .string(let text): feature = .bytes([Array(text.utf8)])
            case .int32(let number): feature = .int64s([Int64(number)])
            case .int64(let number): feature = .int64s([number])
            case .bool(let flag): feature = .int64s([flag ? 1 : 0])
            case .double(let number): feature = .floats([Float(number)])
            // img2dataset's writer cannot store a list of lists (TensorFlow refuses it): the boxes as JSON text.
            case .doubleLists: feature = .bytes([Array(PythonJSON.dumps(value.json, indent: nil).utf8)])
            }
            // A metadata column of the same name replaces the earlier entry, as a Python dict would.
            if let index = features.firstIndex(where: { $0.name == column.name }) {
                features[index].feature = feature
            } else {
                features.append((column.name, feature))
            }
        }
        return TFExample(features: features)
    }

    /// logger.py's `write_stats`: `json.dump(stats, f, indent=4)`.
    static func stats(_ stats: ShardStats) -> String {
        var fields: [(String, PythonJSON.Value)] = [
            ("count", .integer(Int64(stats.count))),
            ("successes", .integer(Int64(stats.successes))),
            ("failed_to_download", .integer(Int64(stats.failedToDownload))),
            ("failed_to_resize", .integer(Int64(stats.failedToResize))),
        ]
        if stats.optedOut > 0 { fields.append(("opted_out", .integer(Int64(stats.optedOut)))) }
        return PythonJSON.dumps(.object(fields + [
            ("duration", .double(stats.duration)),
            ("start_time", .double(stats.startTime)),
            ("end_time", .double(stats.endTime)),
            ("status_dict", .object(stats.statusDict.map { ($0.status, .integer(Int64($0.count))) })),
        ]))
    }
}

extension MetadataValue {
    var json: PythonJSON.Value {
        switch self {
        case .null: return .null
        case .string(let text): return .string(text)
        case .int32(let number): return .integer(Int64(number))
        case .int64(let number): return .integer(number)
        case .double(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .doubleLists(let lists): return .array(lists.map { .array($0.map { .double($0) }) })
        }
    }
}
