import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// A journal line read by hand (``JournalRecord/init(scanning:)``) is what JSONDecoder reads from it, and
/// a line in any other form is left to the decoder: on generated records, and on the same lines mangled
/// (white space, nulls, duplicate and unknown members, numbers in other forms, escapes, cut short).
@Suite struct JournalRecordScanTests {
    static func scan(_ line: [UInt8]) -> JournalRecord? {
        line.withUnsafeBufferPointer { JournalRecord(scanning: $0) }
    }

    @Test func generatedRecordsReadBackAsTheDecoderReadsThem() throws {
        var samples = JSONSamples(seed: 30)
        let decoder = JSONDecoder()
        for _ in 0..<3_000 {
            let record = samples.record()
            let line = try record.json()
            let scanned = Self.scan(line)
            #expect(scanned == record, "\(String(decoding: line, as: UTF8.self))")
            #expect(try scanned?.json() == decoder.decode(JournalRecord.self, from: Data(line)).json())
        }
    }

    /// Ways a line can differ from what the journal writes; each is still often valid JSON.
    static func mangle(_ line: [UInt8], _ samples: inout JSONSamples) -> [UInt8] {
        var text = String(decoding: line, as: UTF8.self)
        let numbers = ["1.0", "1e2", "-0", "01", "1E+2", "0.1000000000000000055511151231257827", "1e-400", "1e400",
                       "-0.0", "123456789012345678901234567890", "9223372036854775808", "-9223372036854775808",
                       "4.9406564584124654e-324", "2.4703282292062328e-324", "17976931348623157e292", "null", "true",
                       "\"5\"", String(samples.double()), "\(samples.integer())", "0.\(samples.int(0...999_999_999))e-\(samples.int(0...330))"]
        switch samples.int(0...9) {
        case 0:  // white space anywhere
            let index = text.utf8.index(text.utf8.startIndex, offsetBy: samples.int(0...text.utf8.count))
            text.insert(contentsOf: [" ", "\n", "\t", "\r"][samples.int(0...3)], at: String.Index(index, within: text) ?? text.startIndex)
        case 1:  // a number in another form
            if let range = text.range(of: #"(?<=[:\[,])-?[0-9][0-9.eE+-]*"#, options: .regularExpression) {
                text.replaceSubrange(range, with: numbers[samples.int(0...numbers.count - 1)])
            }
        case 2:  // a member's value replaced
            if let range = text.range(of: #"(?<=:)"[^"\\]*""#, options: .regularExpression) {
                text.replaceSubrange(range, with: ["null", "1", "\"\\u00e9\\/\\b\"", "\"\\ud83c\\udf05\"", "\"\\ud800\"", "{}", "[]", "\"\\x\""][samples.int(0...7)])
            }
        case 3:  // an unknown or duplicate member
            let member = [#""extra":1,"#, #""id":5,"#, #""type":"seen","#, #""size":3,"#, #""photo":{"id":1,"name":"n"},"#][samples.int(0...4)]
            if let brace = text.lastIndex(of: "{") { text.insert(contentsOf: member, at: text.index(after: brace)) }
        case 4:  // cut short, or something after
            text = samples.chance(50) ? String(text.prefix(samples.int(0...text.count))) : text + [" ", "x", "}", "\n"][samples.int(0...3)]
        case 5:  // one byte changed (may break UTF-8)
            var bytes = Array(text.utf8)
            bytes[samples.int(0...bytes.count - 1)] = UInt8(samples.int(0...255))
            return bytes
        case 6:  // escapes written differently
            text = text.replacingOccurrences(of: "/", with: "\\/").replacingOccurrences(of: "\\n", with: "\\u000A")
        case 7:  // a required member dropped
            if let range = text.range(of: #""(name|path|sha256|size|bytes|reason)":("[^"\\]*"|-?[0-9]+),?"#, options: .regularExpression) {
                text.removeSubrange(range)
            }
        case 8:  // members in another order
            if let range = text.range(of: #""type":"[a-z]+""#, options: .regularExpression), text.hasPrefix("{") {
                let type = String(text[range])
                text.removeSubrange(range)
                text = text.replacingOccurrences(of: ",}", with: "}")
                text.insert(contentsOf: type + ",", at: text.index(after: text.startIndex))
            }
        default:  // a raw control character inside a string
            if let quote = text.lastIndex(of: "\"") { text.insert("\u{1}", at: quote) }
        }
        return Array(text.utf8)
    }

    @Test func mangledLinesAreReadAsTheDecoderReadsThemOrLeftToIt() throws {
        var samples = JSONSamples(seed: 31)
        let decoder = JSONDecoder()
        var (scanned, leftToDecoder, decoded) = (0, 0, 0)
        for _ in 0..<20_000 {
            let line = Self.mangle(try samples.record().json(), &samples)
            let slow = try? decoder.decode(JournalRecord.self, from: Data(line))
            if slow != nil { decoded += 1 }
            if let fast = Self.scan(line) {
                scanned += 1
                #expect(fast == slow, "\(String(decoding: line, as: UTF8.self))")
                // Byte for byte, not only equal: String compares canonically, and -0.0 == 0.0.
                #expect(try fast.json() == slow?.json(), "\(String(decoding: line, as: UTF8.self))")
            } else {
                leftToDecoder += 1
            }
            // What the journal's reader gives is the decoder's answer, either way.
            #expect(JournalRecord.decodeLine(line, with: decoder) == slow)
        }
        // Both ways are exercised: valid variants the scan reads (reordered members, other escapes,
        // numbers it takes), and ones it leaves to the decoder.
        #expect(scanned > 3_000 && leftToDecoder > 3_000 && decoded > scanned, "\(scanned) \(leftToDecoder) \(decoded)")
    }
}
