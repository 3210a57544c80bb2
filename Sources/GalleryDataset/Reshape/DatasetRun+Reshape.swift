import GalleryImaging

extension DatasetRun {
    /// A row's key: the old sample's when the row comes from a finished dataset, else img2dataset's
    /// (``DatasetOptions/key(shard:index:)``).
    func key(of row: DatasetRow, shard: Int) -> String {
        row.reshape?.key ?? options.key(shard: shard, index: row.index)
    }

    /// A row of a finished dataset: its image read from the old shard (never fetched), then processed as a
    /// download is. The bytes are kept as they are when the processing leaves the image as it is: the resize
    /// gives the image's own size (``leavesSize(_:)``: `--resize-mode no`, or the size the mode asks for already),
    /// it is already in `--encode-format`, with no alpha to flatten and no box to blur (see
    /// ``DatasetImageProcessor``). The columns describing the original download (original size, EXIF, hash)
    /// are the old dataset's when it has them.
    func reshapeWork(_ row: DatasetRow, _ source: DatasetReshapeSource) async -> RowOutcome {
        if let problem = row.problem { return .failed(.failedToResize, problem) }
        let options = options
        let processor = processor
        let boxes = row.boxes
        let outcome = try? await pool.run { () -> RowOutcome in
            let bytes: [UInt8]
            do { bytes = try source.load() } catch { return .failed(.failedToResize, "\(error)") }
            let hashName = options.computeHash?.rawValue
            let hash = hashName.flatMap { source.hashes[$0] } ?? bytes.withUnsafeBytes { options.computeHash?.hex($0) }
            // img2dataset re-encodes whenever the mode is not `no`, even at the same size; a reshape copies.
            var same = options.image
            same.resizeMode = .no
            let chosen = options.image.resizeMode != .no && Self.leavesSize(bytes, options.image) ? DatasetImageProcessor(options: same) : processor
            switch chosen.process(bytes, boxes: boxes) {
            case .failure(let refusal): return .failed(.failedToResize, refusal.message)
            case .success(let image):
                let exif = options.extractExif ? (source.exif ?? bytes.withUnsafeBytes { ExifJSON.json(for: $0) }) : nil
                return RowOutcome(status: .success, image: image.bytes, width: image.width, height: image.height,
                                  originalWidth: source.originalWidth ?? image.originalWidth,
                                  originalHeight: source.originalHeight ?? image.originalHeight, exif: exif, hash: hash)
            }
        }
        return outcome ?? .failed(.failedToResize, "cancelled")
    }

    /// Whether `--image-size` and `--resize-mode` give the image its own size, unmoved (a 256 px keep_ratio
    /// image made at 256 px keep_ratio again); false for an image whose header cannot be read.
    static func leavesSize(_ bytes: [UInt8], _ image: DatasetImageOptions) -> Bool {
        guard let info = bytes.withUnsafeBytes({ try? ImageDecoder.probe($0, name: "image", options: DatasetImageProcessor.decodeGuards) }) else {
            return false
        }
        let g = ResizeGeometry(sourceWidth: info.width, sourceHeight: info.height, size: image.imageSize, height: image.imageHeight,
                               mode: image.resizeMode, onlyIfBigger: image.resizeOnlyIfBigger)
        return g.scaledWidth == info.width && g.scaledHeight == info.height && g.width == info.width && g.height == info.height
            && g.offsetX == 0 && g.offsetY == 0
    }
}
