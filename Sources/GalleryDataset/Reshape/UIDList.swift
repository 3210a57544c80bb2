import Foundation
import GallerySystem

/// DataComp's subset file: a `.npy` array of numpy dtype `u8,u8` (two little-endian uint64 per sample: the
/// uid's first 16 hex digits, then its last 16), as its baselines write it (sorted; sorted here if not).
/// The `.npy` header is read as numpy documents it: magic `\x93NUMPY`, version, header length (2 bytes in
/// version 1, 4 in 2 and 3), then a Python dict literal with `descr`, `fortran_order` and `shape`.
public struct UIDList: Sendable, Equatable {
    public struct UID: Sendable, Comparable, Hashable {
        public var high: UInt64
        public var low: UInt64

        public init(high: UInt64, low: UInt64) {
            self.high = high
            self.low = low
        }

        /// DataComp's `uid` text: 32 hex digits.
        public init?(hex: String) {
            guard hex.utf8.count == 32, let high = UInt64(hex.prefix(16), radix: 16), let low = UInt64(hex.suffix(16), radix: 16) else { return nil }
            self.init(high: high, low: low)
        }

        public static func < (a: UID, b: UID) -> Bool { (a.high, a.low) < (b.high, b.low) }
    }

    public let uids: [UID]

    public init(uids: [UID]) { self.uids = uids.sorted() }

    /// Reads `path`; a file that is not such an array is an error naming it and what is wrong.
    public init(npy path: String) throws(DatasetError) {
        let bytes: [UInt8]
        do {
            guard let read = try Syscall.readAll(path) else { throw DatasetError.unreadableInput(path: path, reason: "no such file") }
            bytes = read
        } catch let error as DatasetError { throw error } catch { throw .unreadableInput(path: path, reason: "\(error)") }
        func refuse(_ why: String) -> DatasetError { .unreadableInput(path: path, reason: "not a uid list (.npy of dtype u8,u8): \(why)") }
        guard bytes.count >= 10, bytes[0] == 0x93, Array(bytes[1..<6]) == Array("NUMPY".utf8) else { throw refuse("no .npy magic") }
        let major = bytes[6]
        let lengthSize = major == 1 ? 2 : 4
        guard [1, 2, 3].contains(major), bytes.count >= 8 + lengthSize else { throw refuse("unknown .npy version \(major)") }
        var headerLength = 0
        for i in 0..<lengthSize { headerLength |= Int(bytes[8 + i]) << (8 * i) }
        let start = 8 + lengthSize
        guard bytes.count >= start + headerLength else { throw refuse("the header is cut short") }
        let header = String(decoding: bytes[start..<(start + headerLength)], as: UTF8.self).filter { !$0.isWhitespace }
        // numpy writes descr for dtype("u8,u8") as [('f0','<u8'),('f1','<u8')]; any two field names are taken.
        guard let descr = Self.entry("descr", in: header), descr.hasPrefix("["),
              descr.components(separatedBy: "'<u8'").count == 3, descr.filter({ $0 == "(" }).count == 2 else {
            throw refuse("its dtype is \(Self.entry("descr", in: header) ?? "unknown"), not [('f0', '<u8'), ('f1', '<u8')]")
        }
        guard Self.entry("fortran_order", in: header) == "False" else { throw refuse("fortran_order is not False") }
        guard let shape = Self.entry("shape", in: header), shape.hasPrefix("("), shape.hasSuffix(",)"),
              let count = Int(shape.dropFirst().dropLast(2)) else {
            throw refuse("its shape \(Self.entry("shape", in: header) ?? "?") is not one-dimensional")
        }
        let data = start + headerLength
        guard bytes.count - data == count * 16 else { throw refuse("\(count) uids need \(count * 16) bytes of data, the file has \(bytes.count - data)") }
        var uids: [UID] = []
        uids.reserveCapacity(count)
        bytes.withUnsafeBytes { raw in
            for i in 0..<count {
                let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: data + 16 * i, as: UInt64.self))
                let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: data + 16 * i + 8, as: UInt64.self))
                uids.append(UID(high: high, low: low))
            }
        }
        self.init(uids: uids)
    }

    /// Whether `uid` is in the list (binary search).
    public func contains(_ uid: UID) -> Bool {
        var low = 0, high = uids.count
        while low < high {
            let mid = (low + high) / 2
            if uids[mid] < uid { low = mid + 1 } else { high = mid }
        }
        return low < uids.count && uids[low] == uid
    }

    /// The text of `'key':VALUE` in a whitespace-free dict literal: up to the comma or brace that closes it.
    private static func entry(_ key: String, in header: String) -> String? {
        guard let range = header.range(of: "'\(key)':") else { return nil }
        var depth = 0
        var end = range.upperBound
        while end < header.endIndex {
            let c = header[end]
            if c == "(" || c == "[" { depth += 1 }
            if c == ")" || c == "]" { depth -= 1 }
            if depth < 0 || (depth == 0 && c == ",") || (depth == 0 && c == "}") { break }
            end = header.index(after: end)
        }
        return String(header[range.upperBound..<end])
    }
}
