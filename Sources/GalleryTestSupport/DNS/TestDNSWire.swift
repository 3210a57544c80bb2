#if canImport(Glibc)
import Glibc
#endif

/// The test DNS server's own reading of questions and writing of answers (RFC 1035 §4), independent of
/// the resolver under test. Answers are written without name compression.
enum TestDNSWire {
    struct Query {
        var id: UInt16
        var flags: UInt16
        /// Lower-cased, no final dot.
        var name: String
        var type: UInt16
        /// The question section's bytes (name, type, class) as received.
        var question: [UInt8]

        init?(_ b: [UInt8]) {
            guard b.count >= 17, b[2] & 0x80 == 0, b[4] == 0, b[5] == 1 else { return nil }
            id = UInt16(b[0]) << 8 | UInt16(b[1])
            flags = UInt16(b[2]) << 8 | UInt16(b[3])
            var at = 12
            var labels: [String] = []
            while at < b.count, b[at] != 0 {
                let n = Int(b[at])
                guard n < 64, at + 1 + n < b.count else { return nil }
                labels.append(String(decoding: b[(at + 1)...(at + n)], as: UTF8.self).lowercased())
                at += 1 + n
            }
            guard at + 5 <= b.count else { return nil }
            name = labels.joined(separator: ".")
            type = UInt16(b[at + 1]) << 8 | UInt16(b[at + 2])
            question = Array(b[12..<(at + 5)])
        }
    }

    /// The answer bytes for `query` under `behaviour`, following aliases through `scripts` (8 links at most).
    static func response(to query: Query, _ behaviour: TestDNSServer.Behaviour,
                         scripts: [String: TestDNSServer.Behaviour]) -> [UInt8] {
        var rcode: UInt8 = 0
        var truncated = false
        var answers: [[UInt8]] = []
        var authority: [[UInt8]] = []
        var owner = query.name
        var current = behaviour
        var links = 0
        loop: while true {
            switch current {
            case .address(let v4, let v6, let ttl):
                let list = query.type == 1 ? v4 : query.type == 28 ? v6 : []
                for text in list { answers.append(record(owner, type: query.type, ttl: ttl, data: addressBytes(text))) }
                if list.isEmpty { authority.append(soa(owner, negativeTTL: ttl)) }
                break loop
            case .alias(let target, let ttl):
                answers.append(record(owner, type: 5, ttl: ttl, data: nameBytes(target)))
                owner = target.lowercased()
                links += 1
                guard links <= 8, let next = scripts[owner] else {
                    if links > 8 { rcode = 2 } else { rcode = 3 }
                    break loop
                }
                current = next
            case .nameError(let negativeTTL):
                rcode = 3
                authority.append(soa(owner, negativeTTL: negativeTTL))
                break loop
            case .serverFailure: rcode = 2; break loop
            case .refused: rcode = 5; break loop
            case .truncatedOverUDP: truncated = true; break loop
            case .silent, .silentFirst, .delayed, .byType: rcode = 2; break loop  // only at the top level
            }
        }
        var out: [UInt8] = []
        put(&out, query.id)
        // QR, opcode 0, RD copied, RA, TC when truncated.
        put(&out, 0x8000 | (query.flags & 0x0100) | 0x0080 | (truncated ? 0x0200 : 0) | UInt16(rcode))
        put(&out, 1)
        put(&out, UInt16(answers.count))
        put(&out, UInt16(authority.count))
        put(&out, 0)
        out += query.question
        for r in answers + authority { out += r }
        return out
    }

    static func record(_ owner: String, type: UInt16, ttl: UInt32, data: [UInt8]) -> [UInt8] {
        var out = nameBytes(owner)
        put(&out, type)
        put(&out, 1)
        put(&out, UInt16(ttl >> 16))
        put(&out, UInt16(ttl & 0xFFFF))
        put(&out, UInt16(data.count))
        return out + data
    }

    static func soa(_ owner: String, negativeTTL: UInt32) -> [UInt8] {
        var data = nameBytes("ns.test") + nameBytes("hostmaster.test")
        for value: UInt32 in [1, 3600, 600, 86400, negativeTTL] {
            put(&data, UInt16(value >> 16))
            put(&data, UInt16(value & 0xFFFF))
        }
        let zone = owner.split(separator: ".").suffix(2).joined(separator: ".")
        return record(zone, type: 6, ttl: negativeTTL, data: data)
    }

    static func nameBytes(_ name: String) -> [UInt8] {
        var out: [UInt8] = []
        for label in name.split(separator: ".") {
            out.append(UInt8(label.utf8.count))
            out += Array(label.utf8)
        }
        return out + [0]
    }

    static func addressBytes(_ text: String) -> [UInt8] {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return []
    }

    static func put(_ out: inout [UInt8], _ v: UInt16) {
        out.append(UInt8(v >> 8))
        out.append(UInt8(v & 0xFF))
    }
}
