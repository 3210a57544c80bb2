import Foundation

/// The imaging stage of one photo, run on the ``WorkerPool``: read the original, hash it, decode it once
/// (reduced in the codec for the largest thumbnail or the display rendition), and make every missing
/// thumbnail size and the display rendition from that one decode (``DecodePlan``, shared with the
/// library's `ImagePipeline`).
/// Upright thumbnails go through the decoded-image cache, keyed by the original's content hash.
struct ThumbnailWork: Sendable {
    /// The original: its path, and the rename or publish its bytes call for.
    var original: OriginalPlace
    var sizes: [Int]
    /// The hash from the journal when the original was already recorded; computed otherwise.
    var knownSHA256: String?
    var thumbnailer: Thumbnailer
    var cache: any ImageCaching
    /// Keep the EXIF GPS position (`--show-location`); dropped otherwise.
    var keepLocation = false
    /// The thumbnail size the photo's pHash and ThumbHash are taken from (the job's largest, whether
    /// or not it is missing, so every run hashes the same pixels); nil: no hashes.
    var fingerprintSize: Int?
    /// Make the display rendition, this many pixels on its longest edge, from the same decode (nil:
    /// not wanted or already there). Not made when the original is no larger: the page shows the original.
    var displaySize: Int? = nil
    /// More encodings of each file made (``GalleryJob/extraThumbnailFormats``), written beside it.
    var extraFormats: [ThumbnailFormat] = []

    struct Output: Sendable {
        var original: OriginalFile
        var thumbnails: [ThumbnailFile]
        /// The display rendition, when one was made.
        var display: ThumbnailFile? = nil
    }

    /// The original just downloaded, whole in memory and not yet written: this work publishes it
    /// (under the name its bytes call for) and reads it from memory. Nil: the original is on disk.
    var body: UnpublishedDownload?
    /// Where each file made goes once written (``GalleryStore/publish(_:)``): the original when it is
    /// new (``publishesOriginal``), then every thumbnail and display picture.
    var store: any GalleryStore
    /// Whether the original is new to the gallery (downloaded by this run), so the store gets it too.
    var publishesOriginal = true

    func run() throws(PipelineError) -> Output {
        if let body {
            // Array's withUnsafeBytes rethrows untyped errors: the typed one comes out as a Result.
            let result = body.bytes.withUnsafeBytes { bytes -> Result<Output, PipelineError> in
                let path: String
                do throws(TransferError) { path = try original.publish(body, bytes) } catch { return .failure(.transfer(error)) }
                do throws(PipelineError) { return .success(try run(bytes, path: path)) } catch { return .failure(error) }
            }
            return try finish(result.get())
        }
        let file: MappedFile
        do { file = try MappedFile(path: original.destination) } catch { throw .imaging(.decode(error)) }
        return try finish(file.withUnsafeBytes { (bytes) throws(PipelineError) in
            let path: String
            do throws(GalleryError) { path = try original.fixExtension(bytes) } catch { throw .gallery(error) }
            return try run(bytes, path: path)
        })
    }

    /// Hands the original (when new) to the store, after its thumbnails: the store may drop its local copy.
    private func finish(_ output: Output) -> Output {
        if publishesOriginal { store.publish(output.original.path) }
        return output
    }

    /// The work on the original's bytes (in memory, or mapped, not copied: see ``MappedFile``), at `path`:
    /// the hash, the renditions missing from one decode, then the original's record.
    private func run(_ bytes: UnsafeRawBufferPointer, path: String) throws(PipelineError) -> Output {
        let sha = knownSHA256 ?? SHA256.hex(bytes)
        let writer = RenditionWriter(folder: original.folder, id: original.id, name: original.name, thumbnailer: thumbnailer,
                                     extraFormats: extraFormats, store: store)
        var decoded: DecodedImage?
        var made: [ThumbnailFile] = []
        var fingerprintBitmap: Bitmap?
        let wanted = Set(sizes).union(fingerprintSize.map { [$0] } ?? [])
        for size in wanted.sorted(by: >) {
            let key = ImageCacheKey(source: "sha256:" + sha, size: .longestEdge(size), options: "upright")
            let bitmap: Bitmap
            if let cached = cache[key] {
                bitmap = cached
            } else {
                let image = try decodeOnce(&decoded, bytes, path: path) { () throws(PipelineError) in
                    try decodeEdge(bytes, path: path, largest: wanted.max() ?? size)
                }
                bitmap = rendition(image, longestEdge: size)
                cache[key] = bitmap
            }
            if size == fingerprintSize { fingerprintBitmap = bitmap }
            if sizes.contains(size) { made.append(try writer.write(bitmap, size: size, source: path)) }
        }
        var display: ThumbnailFile?
        if let displaySize {
            let image = try decodeOnce(&decoded, bytes, path: path) { displaySize }
            // Not cached: a 2048 px bitmap would push a hundred thumbnails out of the cache.
            if max(image.sourceWidth, image.sourceHeight) > displaySize {
                display = try writer.write(rendition(image, longestEdge: displaySize), size: displaySize, source: path)
            }
        }
        let original = try originalRecord(bytes, path: path, sha256: sha, decoded: decoded, fingerprint: fingerprintBitmap)
        return Output(original: original, thumbnails: made, display: display)
    }

    /// The original's record: its hash, its upright size (from the decode when there was one, else, every
    /// size a cache hit or none missing, from the header alone), its EXIF and its fingerprints.
    private func originalRecord(_ bytes: UnsafeRawBufferPointer, path: String, sha256: String, decoded: DecodedImage?,
                                fingerprint bitmap: Bitmap?) throws(PipelineError) -> OriginalFile {
        let (width, height, orientation): (Int, Int, Orientation)
        if let decoded {
            (width, height, orientation) = (decoded.sourceWidth, decoded.sourceHeight, decoded.orientation)
        } else {
            do {
                let info = try ImageDecoder.probe(bytes, name: path, options: thumbnailer.decodeOptions)
                (width, height, orientation) = (info.width, info.height, info.orientation)
            } catch { throw .imaging(.decode(error)) }
        }
        let swap = orientation.swapsDimensions
        let fingerprint = bitmap.map(ImageFingerprint.init(of:))
        let exif = ExifReader.metadata(in: bytes)
        return OriginalFile(path: path, sha256: sha256, bytes: bytes.count,
                            width: swap ? height : width, height: swap ? width : height,
                            exif: keepLocation ? exif : exif?.withoutLocation,
                            phash: fingerprint?.phash, thumbhash: fingerprint?.thumbhash.base64, grey: fingerprint?.grey)
    }

    /// The longest edge the one decode must cover: the display rendition's when one will be made (the
    /// original is larger, by its header), else the largest thumbnail's (`largest`). A photo smaller
    /// than the display size is shown itself, so decoding it for the display size would only decode it
    /// whole instead of reduced for its thumbnails.
    private func decodeEdge(_ bytes: UnsafeRawBufferPointer, path: String, largest: Int) throws(PipelineError) -> Int {
        guard let displaySize, displaySize > largest else { return largest }
        let info: ImageInfo
        do { info = try ImageDecoder.probe(bytes, name: path, options: thumbnailer.decodeOptions) } catch { throw .imaging(.decode(error)) }
        return max(info.width, info.height) > displaySize ? displaySize : largest
    }

    /// The one decode of the original, made the first time a rendition needs it (`decoded` keeps it).
    private func decodeOnce(_ decoded: inout DecodedImage?, _ bytes: UnsafeRawBufferPointer, path: String,
                            longestEdge: () throws(PipelineError) -> Int) throws(PipelineError) -> DecodedImage {
        if let decoded { return decoded }
        let image = try decode(bytes, path: path, longestEdge: try longestEdge())
        decoded = image
        return image
    }

    /// The one decode of the original, reduced in the codec for `longestEdge` (the largest rendition wanted).
    private func decode(_ bytes: UnsafeRawBufferPointer, path: String, longestEdge: Int) throws(PipelineError) -> DecodedImage {
        do { return try DecodePlan(size: .longestEdge(longestEdge), options: thumbnailer.decodeOptions).decode(bytes, name: path) } catch {
            throw .imaging(.decode(error))
        }
    }

    /// A rendition of `longestEdge` pixels from that decode: scaled, in sRGB, upright, by the same
    /// ``DecodePlan`` the library's `ImagePipeline` finishes its images with.
    private func rendition(_ decoded: DecodedImage, longestEdge: Int) -> Bitmap {
        DecodePlan(size: .longestEdge(longestEdge), options: thumbnailer.decodeOptions).finish(decoded, resampler: thumbnailer.resampler)
    }
}
