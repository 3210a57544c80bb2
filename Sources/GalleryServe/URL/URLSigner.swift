import CCrypto

/// imgproxy's URL signature: URL-safe Base64 (unpadded) of HMAC-SHA256(key, salt + path), where path
/// is everything after the signature, leading `/` included. Several key/salt pairs may be given
/// (rotation): a URL signed with any of them is accepted, new URLs are signed with the first.
public struct URLSigner: Sendable, Hashable {
    /// The key/salt pairs, raw bytes.
    public let pairs: [KeyPair]

    /// One key and its salt.
    public struct KeyPair: Sendable, Hashable {
        public var key: [UInt8]
        public var salt: [UInt8]
    }

    /// Pairs from hex keys and salts, matched by position (imgproxy's `IMGPROXY_KEYS` and `IMGPROXY_SALTS`).
    /// Throws naming the value that is not hex, or when the counts differ.
    public init(hexKeys: [String], hexSalts: [String]) throws(ServeError) {
        guard hexKeys.count == hexSalts.count else {
            throw .badRequest("\(hexKeys.count) signing keys but \(hexSalts.count) salts: give one salt per key")
        }
        var pairs: [KeyPair] = []
        for (key, salt) in zip(hexKeys, hexSalts) {
            guard let keyBytes = Self.hex(key), !keyBytes.isEmpty else { throw .badRequest("signing key is not hex: '\(key)'") }
            guard let saltBytes = Self.hex(salt) else { throw .badRequest("signing salt is not hex: '\(salt)'") }
            pairs.append(KeyPair(key: keyBytes, salt: saltBytes))
        }
        self.pairs = pairs
    }

    /// The signature of `path` with the first pair (for clients, tests and docs).
    public func sign(_ path: String) -> String {
        Self.signature(path, pairs[0])
    }

    /// Whether `signature` is the signature of `path` under any pair (compared in constant time).
    public func verify(_ signature: String, path: String) -> Bool {
        var matched = false
        for pair in pairs where Self.constantTimeEqual(Array(Self.signature(path, pair).utf8), Array(signature.utf8)) {
            matched = true
        }
        return matched
    }

    static func signature(_ path: String, _ pair: KeyPair) -> String {
        let message = pair.salt + Array(path.utf8)
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let done = pair.key.withUnsafeBytes { key in
            message.withUnsafeBytes { data in
                HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), data.bindMemory(to: UInt8.self).baseAddress,
                     data.count, &digest, &length)
            }
        }
        precondition(done != nil && length == 32, "HMAC-SHA256 failed")
        return Base64URL.encode(digest)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// URL-safe Base64 without padding (RFC 4648 section 5), as imgproxy's URLs use it.
enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            let count = min(3, bytes.count - index) + 1
            for shift in [18, 12, 6, 0].prefix(count) { out.append(alphabet[Int((triple >> UInt32(shift)) & 63)]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes URL-safe (or standard) Base64, padded or not; nil on any other character.
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for c in text.utf8 {
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "-"), UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "_"), UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="): continue
            default: return nil
            }
        }
        guard values.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            var accumulator: UInt32 = 0
            for (offset, value) in chunk.enumerated() { accumulator |= UInt32(value) << UInt32(18 - 6 * offset) }
            let produced = chunk.count - 1
            for offset in 0..<produced { bytes.append(UInt8((accumulator >> UInt32(16 - 8 * offset)) & 0xFF)) }
            index += 4
        }
        return bytes
    }
}
