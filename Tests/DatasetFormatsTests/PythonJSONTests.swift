@testable import DatasetFormats
import Foundation
import Testing

/// `json.dumps(obj, indent=4)` byte for byte: the per-sample JSON and the stats file compared with Python's.
@Suite struct PythonJSONTests {
    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 1.0 / 3, 2.5, 100, 1e15, 1e16, 1.5e16, 123_456_789_012_345_680, 1e-4, 1e-5, 0.00012345,
        1.7976931348623157e308, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1_764_255_600.123456, 9_007_199_254_740_992,
        0.30000000000000004, 1e22, 1e21, 12345.678e-10, .infinity, -.infinity, .nan,
    ]

    static func spec(_ value: PythonJSON.Value) -> Any {
        switch value {
        case .null: return NSNull()
        case .string(let text): return text
        case .integer(let number): return number
        case .double(let number): return ["float": number.isNaN ? "nan" : number.description]
        case .bool(let flag): return flag
        case .object(let members): return ["object": members.map { [$0.0, spec($0.1)] }]
        case .array(let items): return items.map(spec)
        }
    }

    static func python(_ members: [(String, PythonJSON.Value)]) throws -> String {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let object = spec(.object(members)) as! [String: Any]
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: folder.file("spec.json")))
        return try #require(try PythonReader.run(["json-dumps", folder.file("spec.json")])["text"] as? String)
    }

    @Test func floatsAsPythonReprWritesThem() throws {
        let members = Self.doubles.enumerated().map { ("d\($0.offset)", PythonJSON.Value.double($0.element)) }
        #expect(PythonJSON.dumps(.object(members)) == (try Self.python(members)))
    }

    @Test func stringsEscapedAsEnsureAsciiDoes() throws {
        let texts = ["plain", "Café au lait — 東京の朝 🌸", "quote \" backslash \\ slash /", "\u{0}\u{1}\u{1F}\u{7F}\u{80}",
                     "tab\tnewline\nreturn\rbell\u{7}backspace\u{8}formfeed\u{C}", "𝄞 \u{FFFF} \u{10FFFF}", "", "e\u{301}"]
        let members = texts.enumerated().map { ("s\($0.offset) ключ", PythonJSON.Value.string($0.element)) }
            + [("null", .null), ("true", .bool(true)), ("false", .bool(false)), ("int", .integer(-9_007_199_254_740_993)),
               ("empty", .object([])), ("nested", .object([("a", .integer(1)), ("b", .object([("c", .null)]))]))]
        #expect(PythonJSON.dumps(.object(members)) == (try Self.python(members)))
        #expect(PythonJSON.dumps(.object([])) == "{}")
    }

    @Test func statsFileAsLoggerWritesIt() throws {
        let stats = ShardStats(count: 12, successes: 8, failedToDownload: 2, failedToResize: 2,
                               startTime: 1_764_255_600.123456, endTime: 1_764_255_603.5,
                               statusDict: [(status: "success", count: 8), (status: "HTTP Error 404: Not Found", count: 2),
                                            (status: "image too small", count: 2)])
        let members: [(String, PythonJSON.Value)] = [
            ("count", .integer(12)), ("successes", .integer(8)), ("failed_to_download", .integer(2)),
            ("failed_to_resize", .integer(2)), ("duration", .double(1_764_255_603.5 - 1_764_255_600.123456)),
            ("start_time", .double(1_764_255_600.123456)), ("end_time", .double(1_764_255_603.5)),
            ("status_dict", .object([("success", .integer(8)), ("HTTP Error 404: Not Found", .integer(2)),
                                     ("image too small", .integer(2))])),
        ]
        #expect(SampleEncoding.stats(stats) == (try Self.python(members)))
    }
}
