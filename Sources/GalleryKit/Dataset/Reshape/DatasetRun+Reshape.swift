import GalleryImaging

extension DatasetRun {
    /// A row's key: the old sample's when the row comes from a finished dataset, else img2dataset's
    /// (``DatasetOptions/key(shard:index:)``).
    func key(of row: DatasetRow, shard: Int) -> String {
        row.reshape?.key ?? options.key(shard: shard, index: row.index)
    }

    /// A row of a finished dataset: its image read from the old shard (never fetched), then processed as a
    /// download is. The bytes are kept as they are when the processing leaves the image as it is (no resize,
    /// already in `--encode-format`, no alpha to flatten, no box to blur: see ``DatasetImageProcessor``). The
    /// columns describing the original download (original size, EXIF, hash) are the old dataset's when it has them.
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
            switch processor.process(bytes, boxes: boxes) {
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
}
