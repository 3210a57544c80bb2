/// Makes the encoded bytes of one size of one demo photo.
///
/// The seam between the cache (which decides when to render and where to keep the result) and
/// the codecs (which do the work); ``DemoImageRenderer`` is the real one.
public protocol DemoImageRendering: Sendable {
    /// The encoded file. Must be deterministic: the same photo and size give the same bytes.
    /// Called off the cooperative thread pool, so it may block.
    func render(_ photo: DemoPhoto, size: DemoImageSize) throws(DemoError) -> [UInt8]
}
