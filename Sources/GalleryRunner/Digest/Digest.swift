import CCrypto

/// The one digest of the project, through OpenSSL's libcrypto, as lower-case hex (as Python's hashlib
/// `hexdigest()` gives it): the gallery's originals (`sha256`), and the dataset's `--compute-hash` /
/// `--verify-hash` algorithms.
public enum Digest: String, Sendable, CaseIterable {
    case md5, sha256, sha512

    public func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex($0) }
    }

    /// The digest of bytes held elsewhere (a mapped file).
    public func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var digest = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        let ok = EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, evp, nil)
        precondition(ok == 1, "EVP_Digest(\(rawValue)) failed")
        return Self.hexText(digest.prefix(Int(length)))
    }

    /// Bytes as lower-case hex digits.
    static func hexText(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    var evp: OpaquePointer? {
        switch self {
        case .md5: EVP_md5()
        case .sha256: EVP_sha256()
        case .sha512: EVP_sha512()
        }
    }
}

/// The dataset's name for ``Digest`` (`--compute-hash` / `--verify-hash`).
public typealias DatasetHash = Digest

/// A ``Digest`` computed over bytes that arrive in pieces (a file read in chunks), so nothing holds them whole.
public final class DigestStream {
    private let context: OpaquePointer

    public init(_ digest: Digest) {
        context = EVP_MD_CTX_new()!
        precondition(EVP_DigestInit_ex(context, digest.evp, nil) == 1, "EVP_DigestInit_ex(\(digest.rawValue)) failed")
    }

    deinit { EVP_MD_CTX_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "EVP_DigestUpdate failed")
    }

    /// The digest as lower-case hex; the stream is done after it.
    public func hex() -> String {
        var digest = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        precondition(EVP_DigestFinal_ex(context, &digest, &length) == 1, "EVP_DigestFinal_ex failed")
        return Digest.hexText(digest.prefix(Int(length)))
    }
}
