/// How a list column's levels map onto its lists: the column path, and for each list depth `d` (1 = the
/// outer list) the definition level from which that list exists (`listDefined[d - 1]`; below it the list,
/// or the element holding it, is null) and from which it has an element (`listDefined + 1`: the repeated
/// node counts). The leaf is a value at `maxDefinition`, a null element just below it when optional.
struct ParquetListShape: Equatable {
    var path: [String]
    var listDefined: [Int]
    var maxDefinition: Int
    var maxRepetition: Int { listDefined.count }

    /// The shape of a chain of schema elements from the top-level group down to the leaf; nil when no
    /// element of it is repeated (a struct of one field, which the reader does not read).
    init?(_ chain: [ParquetFooter.SchemaElement]) {
        path = chain.map(\.name)
        var definition = 0
        listDefined = []
        for element in chain {
            if element.repetition == 2 { listDefined.append(definition) }
            if element.repetition != 0 { definition += 1 }
        }
        maxDefinition = definition
        guard !listDefined.isEmpty, chain.first?.repetition != 2 else { return nil }
    }
}

extension ParquetColumnChunkReader {
    /// A list column's chunk: repetition and definition levels (data pages v1 and v2) assembled into one
    /// ``ParquetReadValue/list(_:)`` (or null) per row, the leaf values decoded as a flat column's are.
    func readLists(_ chunk: UnsafeRawBufferPointer, rows: Int, shape: ParquetListShape) throws(ParquetFormatProblem) -> [ParquetReadValue] {
        guard rows <= Self.maxRows else {
            throw ParquetFormatProblem("a row group of \(rows) rows, more than the reader holds at once (\(Self.maxRows))")
        }
        var builder = ListAssembler(shape: shape)
        var dictionary: [ParquetReadValue]? = nil
        var offset = 0
        let repWidth = RLEHybridDecoder.width(for: shape.maxRepetition)
        let defWidth = RLEHybridDecoder.width(for: shape.maxDefinition)
        while builder.rows.count < rows || (builder.open && offset < chunk.count) {
            guard offset < chunk.count else {
                if builder.open { builder.finishRow(); continue }
                throw ParquetFormatProblem("the column chunk ends after \(builder.rows.count) of its \(rows) rows")
            }
            let (header, body, pageEnd) = try ParquetPageHeader.page(in: chunk, at: offset)
            offset = pageEnd
            let count = Int(header.valueCount)
            var repetition = [UInt32](), definition = [UInt32](), values = [ParquetReadValue]()
            switch ParquetPageHeader.Kind(rawValue: header.kind) {
            case .dictionary:
                let bytes = try ParquetDecompressor.decompress(body, codec: codec, size: Int(header.uncompressedSize))
                var entries: [ParquetReadValue] = []
                try bytes.withParquetBytes { (raw) throws(ParquetFormatProblem) in
                    try PlainDecoder.decode(raw, type: type, typeLength: typeLength, count: count, into: &entries)
                }
                dictionary = entries
                continue
            case .data:
                let bytes = try ParquetDecompressor.decompress(body, codec: codec, size: Int(header.uncompressedSize))
                try bytes.withParquetBytes { (raw) throws(ParquetFormatProblem) in
                    var at = 0
                    // Repetition levels, then definition levels, each after its 4-byte length.
                    for (width, isRepetition) in [(repWidth, true), (defWidth, false)] {
                        guard raw.count - at >= 4 else { throw ParquetFormatProblem("a data page too short for its levels") }
                        let length = Int(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
                        guard length <= raw.count - at - 4 else { throw ParquetFormatProblem("levels of \(length) bytes run past their page") }
                        var levels = RLEHybridDecoder(UnsafeRawBufferPointer(rebasing: raw[(at + 4)..<(at + 4 + length)]), bitWidth: width)
                        if isRepetition { try levels.decode(count, into: &repetition) } else { try levels.decode(count, into: &definition) }
                        at += 4 + length
                    }
                    let present = definition.reduce(0) { $0 + ($1 == UInt32(shape.maxDefinition) ? 1 : 0) }
                    try decodeValues(UnsafeRawBufferPointer(rebasing: raw[at...]), count: present, present: nil,
                                     encoding: header.encoding, dictionary: dictionary, into: &values)
                }
            case .dataV2:
                let repLength = Int(header.repetitionLevelsLength), defLength = Int(header.definitionLevelsLength)
                guard repLength >= 0, defLength >= 0, repLength + defLength <= body.count else {
                    throw ParquetFormatProblem("v2 page levels of \(repLength + defLength) bytes run past the page")
                }
                var reps = RLEHybridDecoder(UnsafeRawBufferPointer(rebasing: body[0..<repLength]), bitWidth: repWidth)
                try reps.decode(count, into: &repetition)
                var defs = RLEHybridDecoder(UnsafeRawBufferPointer(rebasing: body[repLength..<(repLength + defLength)]), bitWidth: defWidth)
                try defs.decode(count, into: &definition)
                let rest = UnsafeRawBufferPointer(rebasing: body[(repLength + defLength)...])
                let valueSize = Int(header.uncompressedSize) - repLength - defLength
                guard valueSize >= 0 else { throw ParquetFormatProblem("a v2 page smaller than its levels") }
                let bytes = try ParquetDecompressor.decompress(rest, codec: header.isCompressed ? codec : 0, size: valueSize)
                let present = definition.reduce(0) { $0 + ($1 == UInt32(shape.maxDefinition) ? 1 : 0) }
                try bytes.withParquetBytes { (raw) throws(ParquetFormatProblem) in
                    try decodeValues(raw, count: present, present: nil, encoding: header.encoding, dictionary: dictionary, into: &values)
                }
            case .index, nil:
                continue
            }
            guard repetition.count == count, definition.count == count else { throw ParquetFormatProblem("a list page without its levels") }
            var next = 0
            for entry in 0..<count {
                try builder.add(repetition: Int(repetition[entry]), definition: Int(definition[entry])) { () throws(ParquetFormatProblem) in
                    guard next < values.count else { throw ParquetFormatProblem("a list page with fewer values than its levels say") }
                    defer { next += 1 }
                    return values[next]
                }
                if builder.rows.count > rows { throw ParquetFormatProblem("the column chunk holds more than its \(rows) rows") }
            }
        }
        if builder.open { builder.finishRow() }
        guard builder.rows.count == rows else { throw ParquetFormatProblem("the column chunk holds \(builder.rows.count) values for \(rows) rows") }
        return builder.rows
    }
}

/// Dremel's record assembly for one chain of lists: each (repetition, definition) entry opens, extends or
/// ends the lists of the current row.
struct ListAssembler {
    let shape: ParquetListShape
    private(set) var rows: [ParquetReadValue] = []
    /// The open lists, outer first; nil while the current row is null.
    private var stack: [[ParquetReadValue]]? = nil
    private(set) var open = false

    init(shape: ParquetListShape) { self.shape = shape }

    mutating func add(repetition: Int, definition: Int, value: () throws(ParquetFormatProblem) -> ParquetReadValue) throws(ParquetFormatProblem) {
        guard repetition <= shape.maxRepetition, definition <= shape.maxDefinition else {
            throw ParquetFormatProblem("levels (\(repetition), \(definition)) past the column's (\(shape.maxRepetition), \(shape.maxDefinition))")
        }
        if repetition == 0 {
            if open { finishRow() }
            open = true
            stack = []
        } else {
            guard open, var lists = stack else { throw ParquetFormatProblem("a repeated entry with no list open") }
            // Close the lists deeper than the one this entry adds to.
            while lists.count > repetition {
                let inner = lists.removeLast()
                lists[lists.count - 1].append(.list(inner))
            }
            stack = lists
        }
        var lists = stack ?? []
        for depth in max(repetition, 1)...shape.maxRepetition where depth > lists.count {
            // Depth `depth`'s list: null, empty, or with this entry's element.
            if definition < shape.listDefined[depth - 1] {
                if lists.isEmpty { stack = nil; return }
                lists[lists.count - 1].append(.null)
                stack = lists
                return
            }
            lists.append([])
            if definition == shape.listDefined[depth - 1] { stack = lists; return }
        }
        lists[lists.count - 1].append(definition == shape.maxDefinition ? try value() : .null)
        stack = lists
    }

    mutating func finishRow() {
        guard open else { return }
        open = false
        guard var lists = stack else { rows.append(.null); return }
        if lists.isEmpty { rows.append(.null); return }
        while lists.count > 1 {
            let inner = lists.removeLast()
            lists[lists.count - 1].append(.list(inner))
        }
        rows.append(.list(lists[0]))
    }
}
