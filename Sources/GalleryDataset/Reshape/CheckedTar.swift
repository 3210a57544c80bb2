import Foundation
import GallerySystem

/// The regular members of a tar, in order, read from its headers and checked as they are read: each header's
/// checksum (a file that is not a tar fails at its first block), each member's bytes inside the file, and the
/// end-of-archive block (a tar cut short fails). Every failure names the file and the byte.
struct CheckedTar {
    struct Member {
        var name: String
        var offset: Int64
        var size: Int
    }

    let path: String
    let members: [Member]
    /// The tar, open for its members' reads (and its samples' images: ``DatasetReshapeSource/file``).
    let file: OpenShardFile

    init(path: String) throws(DatasetError) {
        self.path = path
        let file = try OpenShardFile(path: path)
        self.file = file
        guard let fileSize = Syscall.fileSize(path) else { throw .unreadableInput(path: path, reason: "not a regular file") }
        var members: [Member] = []
        var offset: Int64 = 0
        var paxName: String?
        while true {
            guard offset + 512 <= fileSize else {
                if offset == 0 { throw .unreadableInput(path: path, reason: "not a tar file (\(fileSize) bytes: not even one tar header)") }
                throw .unreadableInput(path: path, reason: "the tar is cut short: it ends at byte \(fileSize) without its end-of-archive block"
                    + (members.last.map { " (last whole member: \($0.name))" } ?? ""))
            }
            let header = try file.read(count: 512, at: offset)
            if header.allSatisfy({ $0 == 0 }) { break }
            guard Self.checksumHolds(header) else {
                throw .unreadableInput(path: path, reason: offset == 0 ? "not a tar file (its first block is not a tar header)"
                    : "not a tar header at byte \(offset) (bad checksum): the file is damaged")
            }
            func field(_ start: Int, _ count: Int) -> String {
                String(decoding: header[start..<start + count].prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let size = Self.octal(header[124..<136]) else {
                throw .unreadableInput(path: path, reason: "the tar header at byte \(offset) has no size ('\(field(124, 12))')")
            }
            let data = offset + 512
            let name = paxName ?? { let prefix = field(345, 155); return prefix.isEmpty ? field(0, 100) : prefix + "/" + field(0, 100) }()
            guard data + Int64(size) <= fileSize else {
                throw .unreadableInput(path: path, reason: "the tar is cut short: member \(name) needs bytes up to \(data + Int64(size)), the file has \(fileSize)")
            }
            let type = header[156]
            if type == UInt8(ascii: "x") {
                paxName = TarIndex.paxPath(try file.read(count: size, at: data))
            } else {
                if type == UInt8(ascii: "0") || type == 0 { members.append(Member(name: name, offset: data, size: size)) }
                paxName = nil
            }
            offset = data + Int64((size + 511) / 512 * 512)
        }
        self.members = members
    }

    /// The bytes of `member`.
    func read(_ member: Member) throws(DatasetError) -> [UInt8] {
        try file.read(count: member.size, at: member.offset)
    }

    /// POSIX's header checksum: the sum of the header's bytes with the checksum field taken as spaces (some
    /// writers sum signed bytes: either is accepted).
    static func checksumHolds(_ header: [UInt8]) -> Bool {
        guard let stored = octal(header[148..<156]) else { return false }
        var unsigned = 0, high = 0
        header.withUnsafeBufferPointer { bytes in
            for i in 0..<bytes.count where !(148..<156).contains(i) {
                unsigned += Int(bytes[i])
                high += Int(bytes[i] >> 7)
            }
        }
        unsigned += 8 * 32
        // The signed sum counts each byte of 128 or more as itself minus 256.
        return stored == unsigned || stored == unsigned - 256 * high
    }

    /// A numeric header field: octal digits, with spaces or NULs before and after (nil when none, or another byte).
    static func octal(_ field: ArraySlice<UInt8>) -> Int? {
        var value = 0, digits = 0, ended = false
        for byte in field {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                if ended { return nil }
                value = value * 8 + Int(byte - UInt8(ascii: "0"))
                digits += 1
            case 0, 32: if digits > 0 { ended = true }
            default: return nil
            }
        }
        return digits > 0 ? value : nil
    }

    /// webdataset's split of a member name into key and extension: the key runs to the first dot of the last
    /// path component.
    static func split(_ name: String) -> (key: String, ext: String)? {
        let slash = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
        guard let dot = name[slash...].firstIndex(of: ".") else { return nil }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}

/// A shard file held open while it is read: one descriptor for its headers, its metadata members and its
/// samples' images (each read with `pread`, so the pool's threads share it), closed when the last of them lets
/// go. A reshape opens each old shard once instead of once a member.
final class OpenShardFile: Sendable {
    let path: String
    private let fd: Int32

    init(path: String) throws(DatasetError) {
        self.path = path
        do { fd = try Syscall.open(path, O_RDONLY | O_CLOEXEC) } catch { throw .unreadableInput(path: path, reason: error.message) }
    }

    deinit { Syscall.closeQuietly(fd) }

    /// `count` bytes at `offset`; a file that ends before them is an error naming the byte.
    func read(count: Int, at offset: Int64) throws(DatasetError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try Syscall.read(fd, count: count, at: offset, path: path) } catch {
            throw .unreadableInput(path: path, reason: error.message)
        }
        guard bytes.count == count else { throw .unreadableInput(path: path, reason: "the tar is cut short at byte \(offset + Int64(bytes.count))") }
        return bytes
    }
}
