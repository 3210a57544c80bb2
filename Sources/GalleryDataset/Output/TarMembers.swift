/// The regular files of a tar, in order, from their headers (``Walker``, fed the file in chunks): ustar names
/// (prefix and name), a pax `x` header's `path`; the offset is where the member's bytes start, as DALI's
/// wds2idx records it. Nil when a header is not one (a truncated or foreign file).
enum TarMembers {
    struct Member: Equatable {
        var name: String
        var offset: Int
        var size: Int
    }
}

extension TarMembers {
    /// Reads the headers of a tar fed in chunks of any size, holding a few KB at a time.
    struct Walker {
        private var members: [Member] = []
        /// An incomplete 512-byte header.
        private var header: [UInt8] = []
        /// The file offset of the next byte fed.
        private var offset = 0
        /// Bytes of member data and padding still to pass over.
        private var skip = 0
        /// A pax `x` header's data being collected (its size), and what came of it so far.
        private var paxSize = 0
        private var pax: [UInt8]?
        private var paxName: String?
        private var ended = false
        private var failed = false

        mutating func feed(_ chunk: UnsafeRawBufferPointer) {
            var i = 0
            while i < chunk.count, !ended, !failed {
                if skip > 0 {
                    let k = min(skip, chunk.count - i)
                    if pax != nil, pax!.count < paxSize {
                        pax!.append(contentsOf: chunk[i..<(i + min(k, paxSize - pax!.count))])
                    }
                    skip -= k
                    i += k
                    offset += k
                    if skip == 0, let data = pax {
                        paxName = TarIndex.paxPath(data)
                        pax = nil
                    }
                    continue
                }
                let k = min(512 - header.count, chunk.count - i)
                header.append(contentsOf: chunk[i..<(i + k)])
                i += k
                offset += k
                if header.count == 512 {
                    take(header)
                    header.removeAll(keepingCapacity: true)
                }
            }
        }

        private mutating func take(_ block: [UInt8]) {
            if block.allSatisfy({ $0 == 0 }) {
                ended = true
                return
            }
            func field(_ start: Int, _ count: Int) -> String {
                String(decoding: block[start..<(start + count)].prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let size = Int(field(124, 12).filter { $0 != " " }, radix: 8), size >= 0 else {
                failed = true
                return
            }
            let type = block[156]
            if type == UInt8(ascii: "x") {
                paxSize = size
                pax = []
            } else {
                let prefix = field(345, 155)
                let name = paxName ?? (prefix.isEmpty ? field(0, 100) : prefix + "/" + field(0, 100))
                if type == UInt8(ascii: "0") || type == 0 { members.append(Member(name: name, offset: offset, size: size)) }
                paxName = nil
            }
            skip = (size + 511) / 512 * 512
            if skip == 0, let data = pax {
                paxName = TarIndex.paxPath(data)
                pax = nil
            }
        }

        /// The members, or nil when a header was not one or the archive was cut short (no end blocks, or a
        /// member's data past the end).
        func finish() -> [Member]? { ended && !failed ? members : nil }
    }
}
