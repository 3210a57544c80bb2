import DatasetFormats
import Foundation

/// Real photographs and img2dataset-shaped rows (successes, failures, captions in several scripts, nulls).
enum SampleData {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// JPEGs from the corpus and the demo catalogue, with their sizes.
    static let photos: [(path: String, width: Int, height: Int)] = [
        ("Tests/Corpus/jpeg-made/jpg-size-33x33.jpg", 33, 33),
        ("Tests/Corpus/jpeg-made/jpg-gray.jpg", 32, 32),
        ("Tests/Corpus/jpeg-made/jpg-progressive.jpg", 32, 32),
        ("Sources/GalleryDemo/Resources/demo-photos/storm-road.jpg", 1920, 1280),
    ]

    static func photo(_ index: Int) -> [UInt8] {
        let url = root.appendingPathComponent(photos[index % photos.count].path)
        return [UInt8]((try? Data(contentsOf: url)) ?? Data())
    }

    /// img2dataset's metadata schema with a caption column, one saved additional column and sha256.
    static let schema: [MetadataColumn] = [
        .init(name: "url", type: .string), .init(name: "caption", type: .string), .init(name: "license", type: .string),
        .init(name: "key", type: .string), .init(name: "status", type: .string), .init(name: "error_message", type: .string),
        .init(name: "width", type: .int32), .init(name: "height", type: .int32),
        .init(name: "original_width", type: .int32), .init(name: "original_height", type: .int32),
        .init(name: "exif", type: .string), .init(name: "sha256", type: .string),
    ]

    static let captions: [String?] = [
        "Café au lait — 東京の朝 🌸", nil, "quote \" backslash \\ tab\tnewline\nend", "plain caption",
        "Ελληνικά και русский", "",
    ]

    /// Row `index` of shard `shard`: every third row a failure (alternately to download and to resize).
    static func sample(_ index: Int, shard: Int = 0, failures: Bool = true) -> DatasetSample {
        let key = String(format: "%05d%04d", shard, index)
        let caption = captions[index % captions.count]
        let failed = failures && index % 3 == 2
        let downloadFailure = (index / 3) % 2 == 0
        let status = !failed ? "success" : downloadFailure ? "failed_to_download" : "failed_to_resize"
        let error: MetadataValue = !failed ? .null
            : .string(downloadFailure ? "HTTP Error 404: Not Found" : "image too small")
        let image = failed ? nil : photo(index)
        let size: MetadataValue = failed ? .null : .int32(Int32(256 + index))
        let metadata: [MetadataValue] = [
            .string("http://127.0.0.1:8080/photos/\(index).jpg"), caption.map(MetadataValue.string) ?? .null,
            index % 2 == 0 ? .string("CC-BY 4.0") : .null,
            .string(key), .string(status), error, size, size,
            failed ? .null : .int32(Int32(1000 + index)), failed ? .null : .int32(Int32(800 + index)),
            failed ? .null : .string("{\"Image Make\": \"Fujifilm\", \"Image Model\": \"X-T\\u00e9\"}"),
            failed ? .null : .string(String(repeating: "ab", count: 32)),
        ]
        return DatasetSample(key: key, metadata: metadata, image: image, caption: caption)
    }

    /// The metadata of `sample` as a JSON array of [name, value] pairs, for read_shard.py's json-dumps.
    static func pairs(_ metadata: [MetadataValue], schema: [MetadataColumn] = schema) -> [[Any]] {
        zip(schema, metadata).map { [$0.name, jsonValue($1)] }
    }

    static func jsonValue(_ value: MetadataValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .string(let text): return text
        case .int32(let number): return Int(number)
        case .int64(let number): return Int(number)
        case .double(let number): return number
        case .bool(let flag): return flag
        case .doubleLists(let lists): return lists
        }
    }
}
