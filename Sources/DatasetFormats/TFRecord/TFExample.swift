/// One feature of a `tf.train.Example`: a list of bytes, of 32-bit floats or of 64-bit integers.
public enum TFFeature: Sendable, Equatable {
    case bytes([[UInt8]])
    case floats([Float])
    case int64s([Int64])
}

/// A `tf.train.Example`, encoded by hand as protobuf:
/// Example { Features features = 1 }, Features { map<string, Feature> feature = 1 } (each entry a message
/// of key = 1, value = 2), Feature { oneof: BytesList bytes_list = 1, FloatList float_list = 2,
/// Int64List int64_list = 3 }, the lists' `value = 1` packed for floats and integers.
public struct TFExample: Sendable {
    /// Written in this order (protobuf map order is free; img2dataset's dict order is what we keep).
    public var features: [(name: String, feature: TFFeature)]

    public init(features: [(name: String, feature: TFFeature)]) { self.features = features }

    public func serialized() -> [UInt8] {
        var features: [UInt8] = []
        for (name, feature) in self.features {
            var entry: [UInt8] = []
            Self.lengthDelimited(1, Array(name.utf8), into: &entry)
            Self.lengthDelimited(2, Self.encode(feature), into: &entry)
            Self.lengthDelimited(1, entry, into: &features)
        }
        var example: [UInt8] = []
        Self.lengthDelimited(1, features, into: &example)
        return example
    }

    static func encode(_ feature: TFFeature) -> [UInt8] {
        var list: [UInt8] = []
        let field: UInt64
        switch feature {
        case .bytes(let values):
            field = 1
            for value in values { lengthDelimited(1, value, into: &list) }
        case .floats(let values):
            field = 2
            var packed: [UInt8] = []
            for value in values {
                let bits = value.bitPattern
                for shift in stride(from: 0, to: 32, by: 8) { packed.append(UInt8(truncatingIfNeeded: bits >> UInt32(shift))) }
            }
            if !values.isEmpty { lengthDelimited(1, packed, into: &list) }
        case .int64s(let values):
            field = 3
            var packed: [UInt8] = []
            for value in values { varint(UInt64(bitPattern: value), into: &packed) }
            if !values.isEmpty { lengthDelimited(1, packed, into: &list) }
        }
        var out: [UInt8] = []
        lengthDelimited(field, list, into: &out)
        return out
    }

    /// Field `number` of wire type 2 (length-delimited).
    static func lengthDelimited(_ number: UInt64, _ bytes: [UInt8], into out: inout [UInt8]) {
        varint(number << 3 | 2, into: &out)
        varint(UInt64(bytes.count), into: &out)
        out.append(contentsOf: bytes)
    }

    static func varint(_ value: UInt64, into out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }
}
