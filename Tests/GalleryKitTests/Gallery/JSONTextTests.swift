import Foundation
import Testing
@testable import GalleryKit
@testable import PhotoGallery

/// The hand-written JSON (``JSONText``) gives exactly JSONEncoder's bytes: strings, numbers, and the
/// compact and pretty layouts of nested objects and arrays.
@Suite struct JSONTextTests {
    static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func reference(_ value: some Encodable, pretty: Bool = false) throws -> String {
        String(decoding: try encoder(pretty: pretty).encode(value), as: UTF8.self)
    }

    static func text(_ write: (inout JSONText) throws -> Void) rethrows -> String {
        var out = JSONText(pretty: false)
        try write(&out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    @Test func everyASCIICharacterIsEscapedAsTheEncoderEscapesIt() throws {
        for byte in UInt8(0)...0x7F {
            let value = "a" + String(UnicodeScalar(byte)) + "b"
            #expect(Self.text { $0.string(value) } == (try Self.reference(value)), "U+\(String(byte, radix: 16))")
        }
    }

    @Test func generatedStringsAreEscapedAsTheEncoderEscapesThem() throws {
        var samples = JSONSamples(seed: 1)
        for _ in 0..<3_000 {
            let value = samples.string(length: 30)
            #expect(Self.text { $0.string(value) } == (try Self.reference(value)), "\(value.debugDescription)")
        }
        for value in JSONSamples.palette + Hostile.strings {
            #expect(Self.text { $0.string(value) } == (try Self.reference(value)), "\(value.debugDescription)")
        }
    }

    @Test func doublesArePrintedAsTheEncoderPrintsThem() throws {
        var samples = JSONSamples(seed: 2)
        for _ in 0..<20_000 {
            let value = samples.double()
            #expect(try Self.text { try $0.double(value) } == (try Self.reference(value)), "\(value)")
        }
    }

    @Test func integersArePrintedAsTheEncoderPrintsThem() throws {
        var samples = JSONSamples(seed: 3)
        for value in [Int.min, Int.min + 1, Int.max, 0, -1, 10, -10, 1_000_000] + (0..<5_000).map({ _ in samples.integer() }) {
            #expect(Self.text { $0.int(value) } == (try Self.reference(value)), "\(value)")
        }
    }

    @Test func nonFiniteDoublesThrowAsTheEncoderRefusesThem() {
        for value in [Double.nan, .infinity, -.infinity, .signalingNaN] {
            #expect(throws: JSONText.NonFinite.self) { try Self.text { try $0.double(value) } }
            #expect(throws: EncodingError.self) { try Self.reference(value) }
        }
    }

    /// Nested objects and arrays, empty and not, with keys only known at run time.
    struct Nested: Encodable {
        var a: [Int]
        var b: [String: String]
        var c: [String: [Int]]
        var d: String

        func write(into out: inout JSONText) {
            out.beginObject()
            out.key("a")
            out.beginArray()
            for value in a {
                out.element()
                out.int(value)
            }
            out.endArray()
            out.key("b")
            out.beginObject()
            for key in JSONText.sortedKeys(b) {
                out.key(key)
                out.string(b[key]!)
            }
            out.endObject()
            out.key("c")
            out.beginObject()
            for key in JSONText.sortedKeys(c) {
                out.key(key)
                out.beginArray()
                for value in c[key]! {
                    out.element()
                    out.int(value)
                }
                out.endArray()
            }
            out.endObject()
            out.key("d")
            out.string(d)
            out.endObject()
        }
    }

    @Test func layoutOfNestedContainersMatchesCompactAndPretty() throws {
        var samples = JSONSamples(seed: 4)
        for _ in 0..<500 {
            var nested = Nested(a: (0..<samples.int(0...3)).map { _ in samples.integer() }, b: [:], c: [:], d: samples.string())
            for _ in 0..<samples.int(0...4) { nested.b[samples.chance(50) ? String(samples.int(0...2_000)) : samples.string()] = samples.string() }
            for _ in 0..<samples.int(0...3) { nested.c[samples.string(length: 3)] = (0..<samples.int(0...2)).map { _ in samples.int(-9...9) } }
            for pretty in [false, true] {
                var out = JSONText(pretty: pretty)
                nested.write(into: &out)
                #expect(String(decoding: out.bytes, as: UTF8.self) == (try Self.reference(nested, pretty: pretty)))
            }
            // Started two levels in, as an element of an array in an object: the encoder's lines, indented.
            var inner = JSONText(pretty: true, indent: 2)
            inner.writeIndent()
            nested.write(into: &inner)
            let indented = try Self.reference(nested, pretty: true).split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
            #expect(String(decoding: inner.bytes, as: UTF8.self) == indented)
        }
    }
}
