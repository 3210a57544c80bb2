/// The DNS wire format (RFC 1035 §4) for what a stub resolver needs: a query with one question, and a
/// response's header, question, answers (A, AAAA, CNAME) and the SOA of a negative answer (RFC 2308).
/// Names are compared case-insensitively; compression pointers are followed with a hop limit, so a
/// hostile message cannot loop. Public so that the tests' DNS server speaks the same format.
public struct DNSMessage: Sendable, Equatable {
    public enum RecordType: UInt16, Sendable {
        case a = 1, cname = 5, soa = 6, aaaa = 28
    }

    public enum ResponseCode: UInt8, Sendable {
        case noError = 0, formatError = 1, serverFailure = 2, nameError = 3, notImplemented = 4, refused = 5
    }

    /// One resource record: its owner, type, TTL and data (an address in text, a CNAME target, or the SOA's
    /// negative-caching TTL as a decimal string).
    public struct Record: Sendable, Equatable {
        public var name: String
        public var type: UInt16
        public var ttl: UInt32
        public var data: String
        public init(name: String, type: UInt16, ttl: UInt32, data: String) {
            self.name = name
            self.type = type
            self.ttl = ttl
            self.data = data
        }
    }

    public var id: UInt16
    public var isResponse: Bool
    public var truncated: Bool
    public var recursionDesired: Bool
    public var rcode: UInt8
    public var questionName: String
    public var questionType: UInt16
    public var answers: [Record]
    public var authority: [Record]

    public init(id: UInt16, isResponse: Bool = false, truncated: Bool = false, recursionDesired: Bool = true,
                rcode: UInt8 = 0, questionName: String, questionType: UInt16, answers: [Record] = [],
                authority: [Record] = []) {
        self.id = id
        self.isResponse = isResponse
        self.truncated = truncated
        self.recursionDesired = recursionDesired
        self.rcode = rcode
        self.questionName = questionName
        self.questionType = questionType
        self.answers = answers
        self.authority = authority
    }

    /// The largest name (RFC 1035 §2.3.4) and label.
    static let maxNameBytes = 255
    static let maxLabelBytes = 63

    /// Whether `host` can be asked for at all (labels of 1-63 bytes, at most 253 bytes, no spaces or
    /// control bytes).
    public static func isValidName(_ host: String) -> Bool {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.utf8.count <= maxLabelBytes && label.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        }
    }

    /// The bytes of this message (no compression).
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        put16(&out, id)
        var flags: UInt16 = 0
        if isResponse { flags |= 0x8000 | 0x0080 }  // QR, and RA as a forwarding resolver sets it
        if truncated { flags |= 0x0200 }
        if recursionDesired { flags |= 0x0100 }
        flags |= UInt16(rcode & 0x0F)
        put16(&out, flags)
        put16(&out, 1)
        put16(&out, UInt16(answers.count))
        put16(&out, UInt16(authority.count))
        put16(&out, 0)
        Self.putName(&out, questionName)
        put16(&out, questionType)
        put16(&out, 1)  // class IN
        for record in answers + authority { Self.putRecord(&out, record) }
        return out
    }

    /// Parses a message; nil for anything malformed (short, bad pointers, more than one question).
    public init?(decoding bytes: [UInt8]) {
        var reader = DNSReader(bytes)
        guard let id = reader.u16(), let flags = reader.u16(), let qd = reader.u16(), let an = reader.u16(),
              let ns = reader.u16(), reader.u16() != nil, qd == 1,
              let qname = reader.name(), let qtype = reader.u16(), reader.u16() != nil else { return nil }
        self.id = id
        isResponse = flags & 0x8000 != 0
        truncated = flags & 0x0200 != 0
        recursionDesired = flags & 0x0100 != 0
        rcode = UInt8(flags & 0x0F)
        questionName = qname
        questionType = qtype
        answers = []
        authority = []
        for index in 0..<(Int(an) + Int(ns)) {
            // A truncated message may end early: keep what was complete.
            guard let record = reader.record() else { if truncated { break } else { return nil } }
            if index < Int(an) { answers.append(record) } else { authority.append(record) }
        }
    }

    static func putName(_ out: inout [UInt8], _ name: String) {
        for label in name.split(separator: ".") {
            let bytes = Array(label.utf8.prefix(maxLabelBytes))
            out.append(UInt8(bytes.count))
            out.append(contentsOf: bytes)
        }
        out.append(0)
    }

    static func putRecord(_ out: inout [UInt8], _ r: Record) {
        putName(&out, r.name)
        put16(&out, r.type)
        put16(&out, 1)
        put16(&out, UInt16(r.ttl >> 16))
        put16(&out, UInt16(r.ttl & 0xFFFF))
        var data: [UInt8] = []
        switch RecordType(rawValue: r.type) {
        case .a?, .aaaa?: data = IPAddress(r.data)?.bytes ?? []
        case .cname?: putName(&data, r.data)
        case .soa?:
            // mname, rname, serial, refresh, retry, expire, minimum (the negative TTL).
            putName(&data, "ns." + r.name)
            putName(&data, "hostmaster." + r.name)
            for value in [1, 3600, 600, 86400, UInt32(r.data) ?? 300] as [UInt32] {
                put16(&data, UInt16(value >> 16))
                put16(&data, UInt16(value & 0xFFFF))
            }
        case nil: data = Array(r.data.utf8)
        }
        put16(&out, UInt16(data.count))
        out.append(contentsOf: data)
    }
}

private func put16(_ out: inout [UInt8], _ v: UInt16) {
    out.append(UInt8(v >> 8))
    out.append(UInt8(v & 0xFF))
}

/// A bounds-checked cursor over a message.
struct DNSReader {
    let bytes: [UInt8]
    var at = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func u16() -> UInt16? {
        guard at + 2 <= bytes.count else { return nil }
        defer { at += 2 }
        return UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
    }

    mutating func u32() -> UInt32? {
        guard let high = u16(), let low = u16() else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    /// A name at the cursor (following compression pointers, at most 32 of them), lower-cased, no final dot.
    mutating func name() -> String? {
        guard let (name, end) = Self.name(in: bytes, at: at) else { return nil }
        at = end
        return name
    }

    static func name(in bytes: [UInt8], at start: Int) -> (String, Int)? {
        var labels: [String] = []
        var position = start
        var end: Int?
        var hops = 0
        var length = 0
        while true {
            guard position < bytes.count else { return nil }
            let size = Int(bytes[position])
            if size == 0 {
                position += 1
                break
            }
            if size & 0xC0 == 0xC0 {
                guard position + 1 < bytes.count, hops < 32 else { return nil }
                if end == nil { end = position + 2 }
                position = (size & 0x3F) << 8 | Int(bytes[position + 1])
                hops += 1
                continue
            }
            guard size <= DNSMessage.maxLabelBytes, position + 1 + size <= bytes.count else { return nil }
            length += size + 1
            guard length <= DNSMessage.maxNameBytes else { return nil }
            labels.append(String(decoding: bytes[(position + 1)...(position + size)], as: UTF8.self).lowercased())
            position += 1 + size
        }
        return (labels.joined(separator: "."), end ?? position)
    }

    mutating func record() -> DNSMessage.Record? {
        guard let owner = name(), let type = u16(), u16() != nil, let ttl = u32(), let length = u16() else { return nil }
        let start = at
        guard start + Int(length) <= bytes.count else { return nil }
        at += Int(length)
        var data = ""
        switch DNSMessage.RecordType(rawValue: type) {
        case .a?:
            guard length == 4 else { return nil }
            data = IPAddress(bytes: Array(bytes[start..<start + 4]))?.description ?? ""
        case .aaaa?:
            guard length == 16 else { return nil }
            data = IPAddress(bytes: Array(bytes[start..<start + 16]))?.description ?? ""
        case .cname?:
            guard let (target, _) = Self.name(in: bytes, at: start) else { return nil }
            data = target
        case .soa?:
            // The minimum field is the last 4 bytes of the data (after two names and four other fields).
            guard length >= 4 else { return nil }
            var tail = DNSReader(bytes)
            tail.at = start + Int(length) - 4
            data = String(tail.u32() ?? 0)
        case nil: break
        }
        // Treat a TTL with the top bit set as 0 (RFC 2181 §8).
        return DNSMessage.Record(name: owner, type: type, ttl: ttl > Int32.max ? 0 : ttl, data: data)
    }
}
