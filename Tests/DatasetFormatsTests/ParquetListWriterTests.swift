@testable import DatasetFormats
import Foundation
import Testing

/// The `list<list<double>>` column (the `--bbox-col` boxes img2dataset keeps in its metadata): written in
/// pyarrow's three-level layout, read back by pyarrow (schema and values) and by our own reader, with every
/// hole a box column has (null row, empty list, empty box), over several row groups and long level runs.
@Suite struct ParquetListWriterTests {
    static func boxes(_ i: Int) -> [[Double]]? {
        switch i % 6 {
        case 0: return nil
        case 1: return []
        case 2: return [[]]
        case 3: return [[Double(i) / 1000, 0.25, 0.5, 0.75]]
        default: return (0..<(i % 5 + 1)).map { k in [Double(k) / 10, Double(i) / 64, -0.0, Double(k + 1) / 1024] }
        }
    }

    @Test func pyarrowAndOurReaderReadTheBoxes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sink = try LocalFolderSink(folder: folder.path)
        let writer = try ParquetWriter(handle: try sink.create("boxes.parquet"),
                                       columns: [.init(name: "key", kind: .string), .init(name: "face_bboxes", kind: .doubleLists)],
                                       compression: .snappy, maxRowsPerGroup: 700)
        let rows = 1_500
        for i in 0..<rows { try writer.append([.string(String(i)), Self.boxes(i).map { .doubleLists($0) } ?? .null]) }
        try writer.close()

        let script = """
        import json, sys, pyarrow.parquet as pq
        t = pq.read_table(sys.argv[1])
        print(json.dumps({"schema": [[f.name, str(f.type)] for f in t.schema], "rows": t.column("face_bboxes").to_pylist(),
                          "groups": pq.ParquetFile(sys.argv[1]).metadata.num_row_groups}))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, folder.file("boxes.parquet")]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "pyarrow could not read the file")
        let read = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(read["schema"] as? [[String]] == [["key", "string"], ["face_bboxes", "list<element: list<element: double>>"]])
        #expect(read["groups"] as? Int == 3)
        let theirs = read["rows"] as? [Any] ?? []
        try #require(theirs.count == rows)
        for i in 0..<rows {
            let want = Self.boxes(i)
            let got = theirs[i] as? [[Double]]
            if want == nil ? !(theirs[i] is NSNull) : got != want {
                Issue.record("row \(i): pyarrow read \(theirs[i]), we wrote \(String(describing: want))")
                break
            }
        }

        let reader = try ParquetFileReader(path: folder.file("boxes.parquet"))
        var ours: [ParquetReadValue] = []
        for group in reader.rowGroupRowCounts.indices { ours += try reader.readRowGroup(group, columns: ["face_bboxes"])[0] }
        let expected: [ParquetReadValue] = (0..<rows).map { i in
            Self.boxes(i).map { .list($0.map { .list($0.map { .double($0) }) }) } ?? .null
        }
        #expect(ours == expected)
    }
}
