import GalleryImaging

/// The image work of one row, as img2dataset's Resizer does it, with the project's codecs: the filters
/// decided from the header (no pixels decoded to refuse an image), then one decode reduced in the codec as far
/// as the target allows, alpha flattened onto white, one resample, the white border or the centre crop, one
/// encode. EXIF orientation is not applied, as OpenCV's IMREAD_UNCHANGED does not.
public struct DatasetImageProcessor: Sendable {
    public let options: DatasetImageOptions

    public init(options: DatasetImageOptions) { self.options = options }

    /// A processed image, or img2dataset's message for why not.
    public struct Output: Sendable {
        public var bytes: [UInt8]
        public var width: Int
        public var height: Int
        public var originalWidth: Int
        public var originalHeight: Int
        /// The pHash of the image as downloaded (before the resize), when asked for.
        public var phash: PerceptualHash?
    }

    public func process(_ data: [UInt8], boxes: [[Double]]? = nil) -> Result<Output, ImageRefusal> {
        data.withUnsafeBytes { process($0, copying: data, boxes: boxes) }
    }

    /// The same of bytes read in place (a mapped spool file: see ``MappedFile``). `array`: those bytes as an
    /// array when the caller has one (kept as is by --skip-reencode, not copied). `boxes`: the row's
    /// `--bbox-col` boxes, blurred after the scale (``BoxBlur``); a row with boxes is always re-encoded.
    /// `perceptualHash`: also the pHash of the decoded image, as stored (no EXIF rotation, alpha ignored, as
    /// `imagehash.phash(Image.open(file))`), before the resize (``DatasetVerification``).
    public func process(_ data: UnsafeRawBufferPointer, copying array: [UInt8]? = nil,
                        boxes: [[Double]]? = nil, perceptualHash: Bool = false) -> Result<Output, ImageRefusal> {
        let info: ImageInfo
        do { info = try ImageDecoder.probe(data, name: "image", options: Self.decodeGuards) } catch {
            return .failure(ImageRefusal(message: "Image decoding error"))
        }
        let (w, h) = (info.width, info.height)
        if min(w, h) < options.minImageSize { return .failure(ImageRefusal(message: "image too small")) }
        if Double(w) * Double(h) > options.maxImageArea { return .failure(ImageRefusal(message: "image area too large")) }
        if Double(max(w, h)) / Double(min(w, h)) > options.maxAspectRatio {
            return .failure(ImageRefusal(message: "aspect ratio too large"))
        }
        let geometry = ResizeGeometry(sourceWidth: w, sourceHeight: h, size: options.imageSize, height: options.imageHeight,
                                      mode: options.resizeMode, onlyIfBigger: options.resizeOnlyIfBigger)
        let alpha = info.pixelFormat.hasAlpha
        let blurs = !(boxes ?? []).isEmpty
        if options.skipReencode, !geometry.resizes, !alpha, !blurs, Self.sameFormat(info.format, options.encodeFormat) {
            var output = Output(bytes: array ?? Array(data), width: w, height: h, originalWidth: w, originalHeight: h)
            if perceptualHash {
                // Kept as downloaded: decoded only for the hash, reduced in the codec (the hash keeps 8 of 32 frequencies).
                var small = Self.decodeGuards
                small.target = .covering(width: 128, height: 128)
                guard let decoded = try? ImageDecoder.decode(data, name: "image", options: small) else {
                    return .failure(ImageRefusal(message: "Image decoding error"))
                }
                output.phash = PerceptualHash(of: decoded.bitmap)
            }
            return .success(output)
        }
        var decodeOptions = Self.decodeGuards
        if geometry.resizes, !geometry.upscales {
            decodeOptions.target = .covering(width: geometry.scaledWidth, height: geometry.scaledHeight)
        }
        let decoded: DecodedImage
        do { decoded = try ImageDecoder.decode(data, name: "image", options: decodeOptions) } catch {
            return .failure(ImageRefusal(message: "Image decoding error"))
        }
        let phash = perceptualHash ? PerceptualHash(of: decoded.bitmap) : nil
        var bitmap = Self.flattenedOntoWhite(decoded.bitmap)
        if bitmap.width != geometry.scaledWidth || bitmap.height != geometry.scaledHeight {
            let resampler = Resampler(filter: geometry.upscales ? .lanczos3 : .area)
            bitmap = resampler.scale(bitmap, width: geometry.scaledWidth, height: geometry.scaledHeight, extent: decoded.dctExtent)
        }
        if blurs, let boxes { bitmap = BoxBlur.blurred(bitmap, boxes: boxes) }
        if geometry.width != geometry.scaledWidth || geometry.height != geometry.scaledHeight {
            bitmap = Self.placed(bitmap, on: geometry)
        }
        do {
            let bytes = try encode(bitmap)
            return .success(Output(bytes: bytes, width: bitmap.width, height: bitmap.height, originalWidth: w, originalHeight: h, phash: phash))
        } catch {
            return .failure(ImageRefusal(message: "\(error)"))
        }
    }

    /// No colour profiles (OpenCV reads none), the project's guards against absurd images otherwise.
    static var decodeGuards: DecodeOptions {
        var o = DecodeOptions()
        o.readsColorProfiles = false
        return o
    }

    static func sameFormat(_ format: ImageFormat, _ target: DatasetImageOptions.EncodeFormat) -> Bool {
        switch target {
        case .jpg: format == .jpeg
        case .png: format == .png
        case .webp: format == .webp
        case .avif: format == .avif
        }
    }

    private func encode(_ bitmap: Bitmap) throws(EncodeError) -> [UInt8] {
        switch options.encodeFormat {
        case .jpg: try ImageEncoder.encodeJPEG(bitmap, quality: options.encodeQuality)
        case .png: try ImageEncoder.encodePNG(bitmap)
        case .webp: try ImageEncoder.encodeWebP(bitmap, quality: options.encodeQuality)
        case .avif: try ImageEncoder.encodeAVIF(bitmap, quality: options.encodeQuality)
        }
    }
}

/// Why a downloaded image was not kept (`failed_to_resize`), in img2dataset's words.
public struct ImageRefusal: Error, Sendable, Equatable {
    public var message: String
}
