/// SHA-256 of the originals, for the manifest (so a user can verify a download byte for byte): ``Digest/sha256``.
public enum SHA256 {
    /// The digest of `bytes` as 64 lower-case hex digits.
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String { Digest.sha256.hex(bytes) }

    /// The digest of `bytes` as 64 lower-case hex digits.
    public static func hex(_ bytes: [UInt8]) -> String { Digest.sha256.hex(bytes) }
}
