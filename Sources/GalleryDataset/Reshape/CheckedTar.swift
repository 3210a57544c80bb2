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
        var window = ReadWindow(file: file)
        while true {
            guard offset + 512 <= fileSize else {
                if offset == 0 { throw .unreadableInput(path: path, reason: "not a tar file (\(fileSize) bytes: not even one tar header)") }
                throw .unreadableInput(path: path, reason: "the tar is cut short: it ends at byte \(fileSize) without its end-of-archive block"
                    + (members.last.map { " (last whole member: \($0.name))" } ?? ""))
            }
            let header = try window.read(count: 512, at: offset)
            if header.allSatisfy({ $0 == 0 }) { break }
            guard Self.checksumHolds(header) else {
                throw .unreadableInput(path: path, reason: offset == 0 ? "not a tar file (its first block is not a tar header)"
                    : "not a tar header at byte \(offset) (bad checksum): the file is damaged")
            }
            let base = header.startIndex
            func field(_ start: Int, _ count: Int) -> String {
                String(decoding: header[base + start..<base + start + count].prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let size = Self.octal(header[base + 124..<base + 136]) else {
                throw .unreadableInput(path: path, reason: "the tar header at byte \(offset) has no size ('\(field(124, 12))')")
            }
            let data = offset + 512
            let name = paxName ?? { let prefix = field(345, 155); return prefix.isEmpty ? field(0, 100) : prefix + "/" + field(0, 100) }()
            guard data + Int64(size) <= fileSize else {
                throw .unreadableInput(path: path, reason: "the tar is cut short: member \(name) needs bytes up to \(data + Int64(size)), the file has \(fileSize)")
            }
            let type = header[base + 156]
            if type == UInt8(ascii: "x") {
                paxName = TarIndex.paxPath(Array(try window.read(count: size, at: data)))
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

    /// POSIX's header checksum: the sum of the header's 512 bytes with the checksum field taken as spaces (some
    /// writers sum signed bytes: either is accepted).
    static func checksumHolds(_ header: ArraySlice<UInt8>) -> Bool {
        let base = header.startIndex
        guard header.count == 512, let stored = octal(header[base + 148..<base + 156]) else { return false }
        var unsigned = 0, high = 0
        header.withUnsafeBufferPointer { bytes in
            for i in 0..<512 {
                unsigned += Int(bytes[i])
                high += Int(bytes[i] >> 7)
            }
            for i in 148..<156 {
                unsigned -= Int(bytes[i])
                high -= Int(bytes[i] >> 7)
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
    /// path component. Found in the UTF-8 bytes (`/` and `.` are one byte each, never part of another
    /// character's), so the split is on code points as Python's is, not on grapheme clusters.
    static func split(_ name: String) -> (key: String, ext: String)? {
        let utf8 = name.utf8
        let slash = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard let dot = utf8[slash...].firstIndex(of: UInt8(ascii: ".")) else { return nil }
        return (String(utf8[..<dot])!, String(utf8[utf8.index(after: dot)...])!)
    }
}

/// Small reads of one file through a window of at least ``span`` bytes, by one thread: a tar's headers and small
/// members lie close together (a sample's `.json` and `.txt`, with their headers and the next sample's image
/// header, take about 2.5 KiB), so one `pread` serves several of them instead of one each.
struct ReadWindow {
    static let span = 8 << 10
    let file: OpenShardFile
    private var start: Int64 = 0
    private var bytes: [UInt8] = []

    init(file: OpenShardFile) {
        self.file = file
    }

    /// `count` bytes at `offset`, from the window when it holds them, else from a new window read there (a read
    /// larger than the window is made alone, and the window kept); a file that ends before them is an error
    /// naming the byte.
    mutating func read(count: Int, at offset: Int64) throws(DatasetError) -> ArraySlice<UInt8> {
        if offset >= start, offset + Int64(count) <= start + Int64(bytes.count) {
            let from = Int(offset - start)
            return bytes[from..<from + count]
        }
        if count > Self.span { return try file.read(count: count, at: offset)[...] }
        bytes = try file.read(upTo: Self.span, at: offset)
        start = offset
        guard bytes.count >= count else {
            throw .unreadableInput(path: file.path, reason: "the tar is cut short at byte \(offset + Int64(bytes.count))")
        }
        return bytes[0..<count]
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
        let bytes = try read(upTo: count, at: offset)
        guard bytes.count == count else { throw .unreadableInput(path: path, reason: "the tar is cut short at byte \(offset + Int64(bytes.count))") }
        return bytes
    }

    /// Up to `count` bytes at `offset`: fewer only where the file ends.
    func read(upTo count: Int, at offset: Int64) throws(DatasetError) -> [UInt8] {
        do { return try Syscall.read(fd, count: count, at: offset, path: path) } catch {
            throw .unreadableInput(path: path, reason: error.message)
        }
    }
}
