import DatasetFormats
import Foundation
import Testing
@testable import GalleryDataset

/// An old webdataset shard read back for a reshape: the headers and the `.json` / `.txt` members come through a
/// read window of a few KiB (``ReadWindow``), so members on both sides of a window's end, members larger than
/// the window and samples small enough for several to share one window must all come back byte for byte.
@Suite struct OldShardReadTests {
    /// Sample `i`: an image of `image` bytes, and a `.json` of about `json` bytes holding its caption (every third
    /// sample) or beside a `.txt` that holds it (the others: the caption then comes from the `.txt`).
    static func sample(_ i: Int, image: Int, json: Int) -> (key: String, image: [UInt8], json: String, caption: String?) {
        let key = String(format: "%09d", i)
        let bytes = (0..<image).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }
        let filler = String(repeating: "é", count: max(0, json - 60) / 2)
        let caption = "caption \(i) " + filler
        if i % 3 == 0 { return (key, bytes, #"{"key": "\#(key)", "caption": "\#(caption)", "n": \#(i)}"#, nil) }
        return (key, bytes, #"{"key": "\#(key)", "filler": "\#(filler)", "n": \#(i)}"#, caption)
    }

    @Test func everyMemberComesBackWhereverItLiesAgainstTheWindow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("old-shard-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let span = ReadWindow.span
        // Tiny images (several samples in one window), members ending just before, at and after a window's
        // end, a .json larger than the window, and ordinary photos between them.
        let imageSizes = [10, 100, 35_000, 1, 700, span - 1_600, span, span + 1, 3 * span, 0, 20, 2 * span - 7, 5, 40_000]
        let jsonSizes = [60, 300, 400, span - 700, span + 100, 90, 2 * span + 13, 300, span - 1_500, 60, 4_000, 200, 80, 512]
        let samples = imageSizes.indices.map { Self.sample($0, image: imageSizes[$0], json: jsonSizes[$0]) }
        let tar = TarWriter(handle: try LocalFolderSink(folder: folder).create("00000.tar"))
        for s in samples {
            try tar.add(s.key + ".jpg", s.image)
            try tar.add(s.key + ".json", text: s.json)
            if let caption = s.caption { try tar.add(s.key + ".txt", text: caption) }
        }
        try tar.close()

        let reader = try OldSampleReader.webdataset(path: folder + "/00000.tar")
        #expect(reader.columns == ["key", "caption", "n", "url"])
        var read = 0
        while let record = try reader.next() {
            let s = samples[read]
            #expect(record.problem == nil)
            #expect(record.fields["key"]?.text == s.key)
            let caption = "caption \(read) " + String(repeating: "é", count: max(0, jsonSizes[read] - 60) / 2)
            #expect(record.fields["caption"]?.text == caption, "sample \(read): caption")
            #expect(record.fields["n"]?.text == "\(read)")
            #expect(try record.reshape?.load() == s.image, "sample \(read): image bytes")
            read += 1
        }
        #expect(read == samples.count)
    }

    @Test func aWindowAtTheEndOfTheFileGivesWhatIsThereAndACutIsAnError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("window-\(UUID().uuidString)").path
        let bytes = (0..<(ReadWindow.span + 300)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var window = ReadWindow(file: try OpenShardFile(path: path))
        #expect(Array(try window.read(count: 10, at: 5)) == Array(bytes[5..<15]))
        #expect(Array(try window.read(count: 100, at: 8_000)) == Array(bytes[8_000..<8_100]))  // inside the first window
        #expect(Array(try window.read(count: 200, at: 8_150)) == Array(bytes[8_150..<8_350]))  // across its end
        #expect(Array(try window.read(count: 20, at: 4)) == Array(bytes[4..<24]))  // before the window now held
        #expect(Array(try window.read(count: 300, at: Int64(ReadWindow.span))) == Array(bytes[ReadWindow.span...]))
        #expect(throws: DatasetError.self) { try window.read(count: 301, at: Int64(ReadWindow.span)) }
    }
}
