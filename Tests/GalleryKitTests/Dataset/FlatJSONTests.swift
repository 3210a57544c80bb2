import Foundation
import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// The reshard's own reader of a sample's `.json` member gives what JSONSerialization and ``OldSample/value(_:)``
/// give, value for value (numbers typed alike), and leaves to them what it does not read.
@Suite struct FlatJSONTests {
    static func slow(_ text: String) -> [String: InputValue]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
        return object.mapValues(OldSample.value)
    }

    /// img2dataset's member (`json.dumps(meta, indent=4)`), and the numbers and escapes JSON allows.
    static let read = [
        """
        {
            "url": "http://example.invalid/a.jpg?1",
            "caption": "photo \\"1\\" \\\\ a/b\\/c\\ttab\\nline",
            "uid": "0000000000000000000000009e3779b1",
            "key": "000010042",
            "status": "success",
            "error_message": null,
            "width": 256,
            "height": 341,
            "original_width": 620,
            "original_height": 826,
            "exif": "{}",
            "sha256": "1d2b",
            "flag": true,
            "other": false
        }
        """,
        #"{"a": 1.0, "b": 1e2, "c": -0, "d": 0.1, "e": 1E-7, "f": -12.5e+3, "g": 999999999999999999, "h": -999999999999999999}"#,
        #"{"empty": "", "zero": 0, "neg": -3, "big": 123456789012345678, "pi": 3.141592653589793, "tiny": 5e-324}"#,
        "{}", " {\r\n\t} ", #"{"dup": 1, "dup": "two"}"#,
    ]

    /// Left to JSONSerialization: values it keeps as lists or JSON text, non-ASCII text, `\u` escapes, integers of
    /// 19 digits (it reads Int64.min as a double), and text that is not one JSON object.
    static let leftAlone = [
        #"{"face_bboxes": [[0.1, 0.2, 0.3, 0.4]]}"#, #"{"o": {"a": 1}}"#, #"{"caption": "Café"}"#, #"{"c": "\u00e9"}"#,
        #"{"n": 9223372036854775807}"#, #"{"n": -9223372036854775808}"#, #"{"n": 9223372036854775808}"#, #"{"a": 1,}"#, #"{"a": 01}"#, #"{"a": 1} x"#, "[1]", #"{"a": tru}"#, #"{"a": -}"#,
        #"{"a": 1."#, "{\"a\": \"line\nbreak\"}", "",
    ]

    @Test(arguments: read) func readsAsJSONSerializationDoes(_ text: String) throws {
        let fast = try #require(FlatJSON.object(Array(text.utf8)), "not read: \(text)")
        #expect(fast == Self.slow(text))
    }

    @Test(arguments: leftAlone) func leavesTheRestToJSONSerialization(_ text: String) {
        #expect(FlatJSON.object(Array(text.utf8)) == nil)
    }

    @Test func numbersAreTypedAsJSONSerializationTypesThem() throws {
        let fast = try #require(FlatJSON.object(Array(Self.read[1].utf8)))
        #expect(fast["a"] == .double(1.0))
        #expect(fast["c"] == .int(0))
        #expect(fast["g"] == .int(999_999_999_999_999_999))
    }
}
