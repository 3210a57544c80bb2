/// The regular files of a tar held in memory (mapped), in order, from their headers: ustar names (prefix
/// and name), a pax `x` header's `path`; the offset is where the member's bytes start, as DALI's wds2idx
/// records it. Nil when a header is not one (a truncated or foreign file).
enum TarMembers {
    struct Member: Equatable {
        var name: String
        var offset: Int
        var size: Int
    }

    static func list(_ tar: UnsafeRawBufferPointer) -> [Member]? {
        var members: [Member] = []
        var offset = 0
        var paxName: String?
        while offset + 512 <= tar.count {
            let header = UnsafeRawBufferPointer(rebasing: tar[offset..<(offset + 512)])
            if header.allSatisfy({ $0 == 0 }) { return members }
            func field(_ start: Int, _ count: Int) -> String {
                String(decoding: header[start..<(start + count)].prefix { $0 != 0 }, as: UTF8.self)
            }
            let sizeText = field(124, 12).filter { $0 != " " }
            guard let size = Int(sizeText, radix: 8), size >= 0 else { return nil }
            let data = offset + 512
            guard size <= tar.count - data else { return nil }
            let type = header[156]
            if type == UInt8(ascii: "x") {
                paxName = TarIndex.paxPath(Array(tar[data..<(data + size)]))
            } else {
                let prefix = field(345, 155)
                let name = paxName ?? (prefix.isEmpty ? field(0, 100) : prefix + "/" + field(0, 100))
                if type == UInt8(ascii: "0") || type == 0 { members.append(Member(name: name, offset: data, size: size)) }
                paxName = nil
            }
            offset = data + (size + 511) / 512 * 512
        }
        // No end-of-archive blocks: cut short.
        return nil
    }
}
