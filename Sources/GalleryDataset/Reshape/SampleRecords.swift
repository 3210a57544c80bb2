import Foundation
import GallerySystem

/// One sample of an old shard as its members give it (webdataset's grouping: the members sharing a key):
/// the image, the `.json` metadata and the `.txt` caption, each read when the record is made.
struct OldSample {
    var key: String
    var image: DatasetReshapeSource.Image?
    var json: (() throws(DatasetError) -> [UInt8])?
    var caption: (() throws(DatasetError) -> [UInt8])?
    /// The shard file the image is in, held open (a tar's), or nil (it is opened when read).
    var file: OpenShardFile?

    /// Takes member `ext` of the sample; false when the extension is none the sample uses.
    mutating func take(ext: String, image location: DatasetReshapeSource.Image,
                       read: @escaping () throws(DatasetError) -> [UInt8]) -> Bool {
        let lower = ext.lowercased()
        if DatasetReshapeSource.imageExtensions.contains(lower) {
            if image == nil { image = location }
        } else if lower == "json" {
            json = read
        } else if lower == "txt" {
            caption = read
        } else {
            return false
        }
        return true
    }

    /// The sample as an input record: its `.json` fields, `caption` from the `.txt` member when the JSON has
    /// none, `url` null when it has none; the image left where it is. `file` names the shard in messages.
    func record(file: String, line: Int) throws(DatasetError) -> InputRecord {
        var fields: [String: InputValue] = [:]
        if let json {
            let bytes = try json()
            if let flat = FlatJSON.object(bytes) {
                fields = flat
            } else {
                guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                    throw .unreadableInput(path: file, reason: "\(key).json is not a JSON object")
                }
                for (name, value) in object { fields[name] = Self.value(value) }
            }
        }
        if fields["caption"] == nil, let caption { fields["caption"] = .string(String(decoding: try caption(), as: UTF8.self)) }
        if fields["url"] == nil { fields["url"] = .null }
        let keyText = fields["key"]?.text.flatMap { $0.isEmpty ? nil : $0 } ?? key
        guard let image else {
            return InputRecord(fields: fields, problem: "\(key) has no image (\(DatasetReshapeSource.imageExtensions.joined(separator: ", "))) in \(file)",
                               line: line)
        }
        var record = InputRecord(fields: fields, problem: nil, line: line)
        record.reshape = DatasetReshapeSource(image: image, key: keyText, fields: fields)
        record.reshape?.file = self.file
        return record
    }

    /// A `.json` member's value: a list of lists of numbers (boxes, as DataComp's `face_bboxes` is written from
    /// its Parquet `list<list<double>>`) stays a list, so the new metadata keeps that type; any other value as
    /// ``InputValue/init(json:)`` takes it (other arrays and objects as their JSON text).
    static func value(_ json: Any) -> InputValue {
        if let lists = json as? [[Any]], !lists.isEmpty {
            let value = InputValue.list(lists.map { .list($0.map(InputValue.init(json:))) })
            if value.boxes != nil { return value }
        }
        return InputValue(json: json)
    }

    /// The column names the first sample shows (its fields), in the order of its `.json` member (the old
    /// dataset's column order, which the new one keeps), for the column checks.
    func columns(of record: InputRecord?) throws(DatasetError) -> [String] {
        guard let record else { return ["url"] }
        let text = try json.map { load throws(DatasetError) in String(decoding: try load(), as: UTF8.self) } ?? ""
        func position(_ key: String) -> Int {
            text.range(of: "\"\(key)\"").map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) } ?? Int.max
        }
        return record.fields.keys.map { ($0, position($0)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
    }
}

/// The samples of one old shard handed out as input records, whichever format held them: the first
/// is read when the shard is opened (its columns name the new dataset's), the others as they are asked for.
final class OldSampleReader: InputRecordReader {
    let columns: [String]
    private let samples: [OldSample]
    private let path: String
    private var position = 0
    private var first: InputRecord?

    init(path: String, samples: [OldSample]) throws(DatasetError) {
        self.path = path
        self.samples = samples
        first = try samples.first?.record(file: path, line: 1)
        columns = try samples.first?.columns(of: first) ?? ["url"]
    }

    func next() throws(DatasetError) -> InputRecord? {
        defer { position += 1 }
        if position == 0, let first { return first }
        guard position < samples.count else { return nil }
        return try samples[position].record(file: path, line: position + 1)
    }

    /// `--input-format webdataset`: one `.tar` shard of a dataset (ours, img2dataset's, any webdataset), its
    /// members grouped into samples by key. The headers are all read and checked when the shard is opened.
    static func webdataset(path: String) throws(DatasetError) -> OldSampleReader {
        let tar = try CheckedTar(path: path)
        let reads = MemberReads(tar.file)
        var samples: [OldSample] = []
        for member in tar.members {
            guard let (key, ext) = CheckedTar.split(member.name) else { continue }
            if samples.last?.key != key { samples.append(OldSample(key: key, file: tar.file)) }
            _ = samples[samples.count - 1].take(ext: ext, image: .file(path: path, offset: member.offset, size: member.size)) { () throws(DatasetError) in
                try reads.read(member)
            }
        }
        return try OldSampleReader(path: path, samples: samples)
    }

    /// `--input-format files`: one shard folder (`00000/`) of a dataset written with `--output-format files`:
    /// `KEY.jpg`, `KEY.txt`, `KEY.json`, samples in key order.
    static func files(path: String) throws(DatasetError) -> OldSampleReader {
        let names: [String]
        do { names = try Syscall.names(in: path) } catch { throw .unreadableInput(path: path, reason: error.message) }
        var byKey: [String: OldSample] = [:]
        for name in names.sorted() {
            guard let (key, ext) = CheckedTar.split(name) else { continue }
            let file = path + "/" + name
            guard let size = Syscall.fileSize(file) else { continue }
            var sample = byKey[key] ?? OldSample(key: key)
            let taken = sample.take(ext: ext, image: .file(path: file, offset: 0, size: Int(size))) { () throws(DatasetError) in
                do throws(SystemError) { return try Syscall.readAll(file) ?? [] } catch { throw .unreadableInput(path: file, reason: error.message) }
            }
            if taken { byKey[key] = sample }
        }
        return try OldSampleReader(path: path, samples: byKey.keys.sorted().map { byKey[$0]! })
    }
}

/// The `.json` and `.txt` members of one tar, read in order by its reader's thread through one ``ReadWindow``
/// (held here so the members' read closures share it): a sample's two small members come with one `pread`.
private final class MemberReads {
    private var window: ReadWindow

    init(_ file: OpenShardFile) {
        window = ReadWindow(file: file)
    }

    func read(_ member: CheckedTar.Member) throws(DatasetError) -> [UInt8] {
        Array(try window.read(count: member.size, at: member.offset))
    }
}
