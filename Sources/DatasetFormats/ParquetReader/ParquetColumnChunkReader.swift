/// Decodes one flat column chunk (its pages, held in memory) into values, one per row: dictionary
/// page, then data pages v1 or v2; PLAIN, PLAIN_DICTIONARY / RLE_DICTIONARY, and RLE for booleans;
/// definition levels RLE/bit-packed (width from the column's max level, 0 or 1 for a flat column).
struct ParquetColumnChunkReader {
    let type: ParquetFooter.PhysicalType
    let typeLength: Int
    let optional: Bool
    let codec: Int32

    /// The most rows of one row group the reader holds at once (a footer may claim any number).
    static let maxRows = 1 << 24

    func read(_ chunk: UnsafeRawBufferPointer, rows: Int) throws(ParquetFormatProblem) -> [ParquetReadValue] {
        guard rows <= Self.maxRows else {
            throw ParquetFormatProblem("a row group of \(rows) rows, more than the reader holds at once (\(Self.maxRows))")
        }
        var values: [ParquetReadValue] = []
        // Trust the claimed count only as far as the bytes could hold it (RLE runs aside).
        values.reserveCapacity(min(rows, chunk.count &* 8 &+ 1024))
        var dictionary: [ParquetReadValue]? = nil
        var offset = 0
        while values.count < rows {
            guard offset < chunk.count else {
                throw ParquetFormatProblem("the column chunk ends after \(values.count) of its \(rows) rows")
            }
            let (header, body, pageEnd) = try ParquetPageHeader.page(in: chunk, at: offset)
            offset = pageEnd
            if header.kind == ParquetPageHeader.Kind.data.rawValue || header.kind == ParquetPageHeader.Kind.dataV2.rawValue {
                guard Int(header.valueCount) <= rows - values.count else {
                    throw ParquetFormatProblem("a page of \(header.valueCount) values past the row group's \(rows) rows")
                }
            }
            switch ParquetPageHeader.Kind(rawValue: header.kind) {
            case .dictionary:
                let bytes = try ParquetDecompressor.decompress(body, codec: codec, size: Int(header.uncompressedSize))
                var entries: [ParquetReadValue] = []
                entries.reserveCapacity(min(Int(header.valueCount), bytes.count &* 8 &+ 16))
                try bytes.withParquetBytes { (raw) throws(ParquetFormatProblem) in
                    try PlainDecoder.decode(raw, type: type, typeLength: typeLength, count: Int(header.valueCount), into: &entries)
                }
                dictionary = entries
            case .data:
                let bytes = try ParquetDecompressor.decompress(body, codec: codec, size: Int(header.uncompressedSize))
                try bytes.withParquetBytes { (raw) throws(ParquetFormatProblem) in
                    var levelBytes = 0
                    var present = [UInt32]()
                    if optional {
                        guard raw.count >= 4 else { throw ParquetFormatProblem("a data page too short for its definition levels") }
                        let length = Int(raw.loadUnaligned(as: UInt32.self).littleEndian)
                        guard length <= raw.count - 4 else { throw ParquetFormatProblem("definition levels of \(length) bytes run past their page") }
                        var levels = RLEHybridDecoder(UnsafeRawBufferPointer(rebasing: raw[4..<(4 + length)]), bitWidth: 1)
                        try levels.decode(Int(header.valueCount), into: &present)
                        levelBytes = 4 + length
                    }
                    try decodeValues(UnsafeRawBufferPointer(rebasing: raw[levelBytes...]), count: Int(header.valueCount),
                                     present: optional ? present : nil, encoding: header.encoding, dictionary: dictionary, into: &values)
                }
            case .dataV2:
                let levelsLength = Int(header.definitionLevelsLength) + Int(header.repetitionLevelsLength)
                guard header.repetitionLevelsLength == 0 else { throw ParquetFormatProblem("repetition levels in a flat column") }
                guard header.definitionLevelsLength >= 0, levelsLength <= body.count else {
                    throw ParquetFormatProblem("v2 page levels of \(levelsLength) bytes run past the page")
                }
                var present = [UInt32]()
                if optional {
                    var levels = RLEHybridDecoder(UnsafeRawBufferPointer(rebasing: body[0..<levelsLength]), bitWidth: 1)
                    try levels.decode(Int(header.valueCount), into: &present)
                }
                let rest = UnsafeRawBufferPointer(rebasing: body[levelsLength...])
                let valueSize = Int(header.uncompressedSize) - levelsLength
                guard valueSize >= 0 else { throw ParquetFormatProblem("a v2 page smaller than its levels") }
                let bytes = header.isCompressed
                    ? try ParquetDecompressor.decompress(rest, codec: codec, size: valueSize)
                    : try ParquetDecompressor.decompress(rest, codec: 0, size: valueSize)
                try bytes.withParquetBytes { (raw) throws(ParquetFormatProblem) in
                    try decodeValues(raw, count: Int(header.valueCount), present: optional ? present : nil,
                                     encoding: header.encoding, dictionary: dictionary, into: &values)
                }
            case .index, nil:
                continue  // index pages and unknown kinds carry no values
            }
        }
        guard values.count == rows else { throw ParquetFormatProblem("the column chunk holds \(values.count) values for \(rows) rows") }
        return values
    }

    /// Values of one data page: `count` slots, of which those with `present[i] == 1` (all, for a
    /// required column) carry an encoded value.
    func decodeValues(_ raw: UnsafeRawBufferPointer, count: Int, present: [UInt32]?, encoding: Int32,
                      dictionary: [ParquetReadValue]?, into values: inout [ParquetReadValue]) throws(ParquetFormatProblem) {
        let nonNull = present.map { $0.reduce(0) { $0 + Int($1 & 1) } } ?? count
        var decoded: [ParquetReadValue] = []
        decoded.reserveCapacity(nonNull)
        switch encoding {
        case 0:
            try PlainDecoder.decode(raw, type: type, typeLength: typeLength, count: nonNull, into: &decoded)
        case 2, 8:
            guard let dictionary else { throw ParquetFormatProblem("dictionary-encoded values without a dictionary page") }
            guard nonNull > 0 else { break }
            guard raw.count >= 1 else { throw ParquetFormatProblem("dictionary indices without their bit width") }
            var indices = RLEHybridDecoder(UnsafeRawBufferPointer(rebasing: raw[1...]), bitWidth: Int(raw[0]))
            var positions = [UInt32]()
            positions.reserveCapacity(nonNull)
            try indices.decode(nonNull, into: &positions)
            for p in positions {
                guard Int(p) < dictionary.count else {
                    throw ParquetFormatProblem("dictionary index \(p) out of range (the dictionary has \(dictionary.count) entries)")
                }
                decoded.append(dictionary[Int(p)])
            }
        case 3 where type == .boolean:
            guard raw.count >= 4 else { throw ParquetFormatProblem("RLE booleans without their length") }
            let length = Int(raw.loadUnaligned(as: UInt32.self).littleEndian)
            guard length <= raw.count - 4 else { throw ParquetFormatProblem("RLE booleans run past their page") }
            var bits = RLEHybridDecoder(UnsafeRawBufferPointer(rebasing: raw[4..<(4 + length)]), bitWidth: 1)
            var out = [UInt32]()
            try bits.decode(nonNull, into: &out)
            decoded = out.map { .bool($0 == 1) }
        default:
            let names = [0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED", 5: "DELTA_BINARY_PACKED",
                         6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY", 8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT"]
            throw ParquetFormatProblem("values encoded as \(names[Int(encoding)] ?? "encoding \(encoding)"), which this reader does not read")
        }
        guard let present else { values.append(contentsOf: decoded); return }
        var next = 0
        for level in present {
            if level & 1 == 1 { values.append(decoded[next]); next += 1 } else { values.append(.null) }
        }
    }
}
