import Foundation
import GallerySystem

/// Where each member of a tar is (ustar, as ours and webdataset's are; pax `x` headers give the name),
/// read from the headers only; members are read later by offset.
struct TarIndex {
    let path: String
    private(set) var members: [String: (offset: Int64, size: Int)] = [:]

    init(path: String) throws(DatasetError) {
        self.path = path
        let fd: Int32
        do { fd = try Syscall.open(path, O_RDONLY | O_CLOEXEC) } catch { throw .output("cannot open \(path): \(error.message)") }
        defer { Syscall.closeQuietly(fd) }
        var offset: Int64 = 0
        var header = [UInt8](repeating: 0, count: 512)
        var paxName: String?
        while true {
            guard try Self.read(fd, into: &header, at: offset, path: path) else { break }
            if header.allSatisfy({ $0 == 0 }) { break }
            func field(_ start: Int, _ count: Int) -> String {
                String(decoding: header[start..<start + count].prefix { $0 != 0 }, as: UTF8.self)
            }
            let sizeText = field(124, 12).trimmingCharacters(in: CharacterSet(charactersIn: " \0"))
            guard let size = Int(sizeText, radix: 8) else { throw .output("\(path): a tar header at byte \(offset) is not one (size '\(sizeText)')") }
            let type = header[156]
            let prefix = field(345, 155)
            let name = paxName ?? (prefix.isEmpty ? field(0, 100) : prefix + "/" + field(0, 100))
            let data = offset + 512
            if type == UInt8(ascii: "x") {
                var body = [UInt8](repeating: 0, count: size)
                _ = try Self.read(fd, into: &body, at: data, path: path)
                paxName = Self.paxPath(body)
            } else {
                if type == UInt8(ascii: "0") || type == 0 { members[name] = (data, size) }
                paxName = nil
            }
            offset = data + Int64((size + 511) / 512 * 512)
        }
    }

    /// The bytes of member `name`, or nil when the tar has none.
    func read(_ name: String) throws(DatasetError) -> [UInt8]? {
        guard let member = members[name] else { return nil }
        let fd: Int32
        do { fd = try Syscall.open(path, O_RDONLY | O_CLOEXEC) } catch { throw .output("cannot open \(path): \(error.message)") }
        defer { Syscall.closeQuietly(fd) }
        var bytes = [UInt8](repeating: 0, count: member.size)
        guard try Self.read(fd, into: &bytes, at: member.offset, path: path) else { throw .output("\(path): \(name) is cut short") }
        return bytes
    }

    /// Fills `buffer` from `offset`; false at the end of the file before any byte.
    private static func read(_ fd: Int32, into buffer: inout [UInt8], at offset: Int64, path: String) throws(DatasetError) -> Bool {
        let bytes: [UInt8]
        do { bytes = try Syscall.read(fd, count: buffer.count, at: offset, path: path) } catch {
            throw .output("cannot read \(path): \(error.message)")
        }
        if bytes.isEmpty && !buffer.isEmpty { return false }
        guard bytes.count == buffer.count else { throw .output("\(path) is cut short at byte \(offset + Int64(bytes.count))") }
        buffer = bytes
        return true
    }

    /// The `path` record of a pax header ("LEN path=NAME\n" records).
    static func paxPath(_ body: [UInt8]) -> String? {
        for record in String(decoding: body, as: UTF8.self).split(separator: "\n") {
            guard let space = record.firstIndex(of: " ") else { continue }
            let entry = record[record.index(after: space)...]
            if entry.hasPrefix("path=") { return String(entry.dropFirst(5)) }
        }
        return nil
    }
}
