#if canImport(Glibc)
import Glibc
#endif
import GallerySystem

/// Reads a Parquet file's flat columns row group by row group, without loading the file: the footer is
/// read once, then for each row group only the chunks of the columns asked for (a LAION file's
/// embedding columns are never read, let alone decompressed).
///
/// Memory: the footer, plus, while a row group is read, the compressed chunks of the wanted columns
/// and their decoded values (one page's inflated bytes at a time).
public final class ParquetFileReader {
    /// A top-level column of the file.
    public struct Column: Sendable, Equatable {
        public var name: String
        /// parquet.thrift's physical type name (`BYTE_ARRAY`, `INT64`, ...).
        public var physicalType: String
        /// Whether the column is text (BYTE_ARRAY with the STRING / UTF8 annotation).
        public var isString: Bool
        public var isOptional: Bool
        /// Whether the reader can read it: flat or a list (of lists) of a supported type; a struct or map cannot.
        public var isReadable: Bool
    }

    public let path: String
    public let columns: [Column]
    /// The rows of each row group, in order.
    public let rowGroupRowCounts: [Int]
    public var rowCount: Int { rowGroupRowCounts.reduce(0, +) }

    let fd: Int32
    let fileSize: Int
    let footer: ParquetFooter
    let leaves: [String: Leaf]

    /// A readable column's leaf, and for a list column the shape of its levels.
    struct Leaf {
        var element: ParquetFooter.SchemaElement
        var index: Int
        var list: ParquetListShape?
    }

    /// The largest footer read (a corrupt length must not make the reader allocate gigabytes).
    static let maxFooterBytes = 64 << 20

    public init(path: String) throws(ParquetReadError) {
        self.path = path
        do throws(SystemError) { fd = try Syscall.open(path, O_RDONLY) } catch {
            throw ParquetReadError(path: path, reason: "cannot open: \(error.message)")
        }
        do throws(SystemError) { fileSize = try Syscall.size(fd, path: path) } catch {
            Syscall.closeQuietly(fd)
            throw ParquetReadError(path: path, reason: "cannot stat: \(error.message)")
        }
        do throws(ParquetFormatProblem) {
            let tail = try Self.pread(fd, count: 8, at: fileSize - 8, fileSize: fileSize)
            guard fileSize >= 12, Array(tail[4...]) == Array("PAR1".utf8) else {
                throw ParquetFormatProblem("not a Parquet file (no PAR1 magic at its end; \(fileSize) bytes)")
            }
            let length = Int(tail.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self).littleEndian })
            guard length <= fileSize - 12, length <= Self.maxFooterBytes else {
                throw ParquetFormatProblem("a footer of \(length) bytes does not fit in the file (\(fileSize) bytes): truncated or corrupt")
            }
            let bytes = try Self.pread(fd, count: length, at: fileSize - 8 - length, fileSize: fileSize)
            footer = try bytes.withParquetBytes { (raw) throws(ParquetFormatProblem) in try ParquetFooter(raw) }
            (columns, leaves) = try Self.flatColumns(footer.schema)
            rowGroupRowCounts = footer.rowGroups.map { Int(clamping: $0.rowCount) }
            guard rowGroupRowCounts.allSatisfy({ $0 >= 0 }) else { throw ParquetFormatProblem("a row group with a negative row count") }
        } catch {
            Syscall.closeQuietly(fd)
            throw ParquetReadError(path: path, reason: error.reason)
        }
    }

    deinit { Syscall.closeQuietly(fd) }

    /// Reads row group `index`: for each name in `names`, its values, one per row.
    public func readRowGroup(_ index: Int, columns names: [String]) throws(ParquetReadError) -> [[ParquetReadValue]] {
        guard footer.rowGroups.indices.contains(index) else { throw ParquetReadError(path: path, reason: "no row group \(index)") }
        let group = footer.rowGroups[index]
        var result: [[ParquetReadValue]] = []
        for name in names {
            guard let leaf = leaves[name] else {
                if let column = columns.first(where: { $0.name == name }) {
                    throw ParquetReadError(path: path, reason: "column '\(name)' is a \(column.physicalType) (a struct or map), which this reader does not read")
                }
                let known = columns.map(\.name).joined(separator: ", ")
                throw ParquetReadError(path: path, reason: "no column '\(name)' (the file has: \(known))")
            }
            guard let chunk = group.columns.first(where: { $0.path == (leaf.list?.path ?? [name]) }) else {
                throw ParquetReadError(path: path, reason: "row group \(index) has no chunk for column '\(name)'")
            }
            do {
                result.append(try read(chunk, element: leaf.element, list: leaf.list, rows: rowGroupRowCounts[index]))
            } catch {
                throw ParquetReadError(path: path, reason: "row group \(index), column '\(name)': \(error.reason)")
            }
        }
        return result
    }

    func read(_ chunk: ParquetFooter.ColumnChunk, element: ParquetFooter.SchemaElement, list: ParquetListShape?,
              rows: Int) throws(ParquetFormatProblem) -> [ParquetReadValue] {
        if rows == 0 { return [] }
        guard chunk.externalFile == nil else { throw ParquetFormatProblem("the chunk is in another file (\(chunk.externalFile!))") }
        guard let type = ParquetFooter.PhysicalType(rawValue: chunk.type) else { throw ParquetFormatProblem("unknown physical type \(chunk.type)") }
        guard ParquetDecompressor.isSupported(chunk.codec) else {
            throw ParquetFormatProblem("pages compressed with \(ParquetDecompressor.name(of: chunk.codec)), which this reader does not read (UNCOMPRESSED, SNAPPY, GZIP and ZSTD are)")
        }
        var start = chunk.dataPageOffset
        if let dictionary = chunk.dictionaryPageOffset, dictionary > 0, dictionary < start { start = dictionary }
        guard start >= 4, chunk.compressedSize >= 0, start <= Int64(fileSize), chunk.compressedSize <= Int64(fileSize) - start else {
            throw ParquetFormatProblem("the chunk (\(chunk.compressedSize) bytes at \(start)) lies outside the file (\(fileSize) bytes)")
        }
        let bytes = try Self.pread(fd, count: Int(chunk.compressedSize), at: Int(start), fileSize: fileSize)
        let reader = ParquetColumnChunkReader(type: type, typeLength: Int(element.typeLength), optional: element.repetition == 1, codec: chunk.codec)
        if let list {
            return try bytes.withParquetBytes { (raw) throws(ParquetFormatProblem) in try reader.readLists(raw, rows: rows, shape: list) }
        }
        return try bytes.withParquetBytes { (raw) throws(ParquetFormatProblem) in try reader.read(raw, rows: rows) }
    }

    /// The top-level columns: a leaf directly under the root, or a list (of lists...) of a leaf, readable;
    /// a struct or map (a group with more than one child on the way down) listed but not readable.
    static func flatColumns(_ schema: [ParquetFooter.SchemaElement]) throws(ParquetFormatProblem)
        -> ([Column], [String: Leaf]) {
        var columns: [Column] = []
        var leaves: [String: Leaf] = [:]
        let names = ["BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"]
        var i = 1
        // Walks the tree: each top-level element and, for a group, every element beneath it.
        func subtree(_ count: Int32) throws(ParquetFormatProblem) -> [ParquetFooter.SchemaElement] {
            var left = Int(count)
            var seen: [ParquetFooter.SchemaElement] = []
            while left > 0 {
                guard i < schema.count else { throw ParquetFormatProblem("the schema's tree is cut short") }
                let element = schema[i]
                seen.append(element)
                i += 1; left -= 1
                if element.children > 0 { seen += try subtree(element.children) }
            }
            return seen
        }
        while i < schema.count {
            let e = schema[i]
            i += 1
            if e.children > 0 || e.type == nil || e.repetition == 2 {
                let below = try subtree(e.children)
                // A chain of single-child groups down to one leaf: a list, or a list of lists.
                let chain = [e] + below
                let single = chain.dropLast().allSatisfy { $0.children == 1 } && chain.last?.type != nil && chain.last?.children == 0
                let shape = single ? ParquetListShape(chain) : nil
                let leafType = chain.last?.type.map(Int.init) ?? -1
                columns.append(Column(name: e.name, physicalType: shape == nil ? "group" : "list<\(names.indices.contains(leafType) ? names[leafType] : "?")>",
                                      isString: false, isOptional: e.repetition == 1, isReadable: shape != nil && names.indices.contains(leafType)))
                if let shape, names.indices.contains(leafType) { leaves[e.name] = Leaf(element: chain.last!, index: columns.count - 1, list: shape) }
                continue
            }
            let type = Int(e.type!)
            columns.append(Column(name: e.name, physicalType: names.indices.contains(type) ? names[type] : "type \(type)",
                                  isString: type == 6 && (e.logicalString || e.convertedType == 0),
                                  isOptional: e.repetition == 1, isReadable: names.indices.contains(type)))
            leaves[e.name] = Leaf(element: e, index: columns.count - 1, list: nil)
        }
        return (columns, leaves)
    }

    static func pread(_ fd: Int32, count: Int, at offset: Int, fileSize: Int) throws(ParquetFormatProblem) -> [UInt8] {
        guard offset >= 0, count >= 0, offset + count <= fileSize else {
            throw ParquetFormatProblem("\(count) bytes at \(offset) lie past the end of the file (\(fileSize) bytes)")
        }
        let bytes: [UInt8]
        do throws(SystemError) { bytes = try Syscall.read(fd, count: count, at: Int64(offset), path: "") } catch {
            throw ParquetFormatProblem("read failed: \(error.message)")
        }
        guard bytes.count == count else { throw ParquetFormatProblem("the file ended early") }
        return bytes
    }
}
