/// Why one photo (or the run) failed, wrapped with the stage it failed in. Every stage's own typed
/// error names its input (URL, file); this adds the stage.
public enum PipelineError: Error, Sendable, CustomStringConvertible {
    /// Fetching a page or a photo failed.
    case transfer(TransferError)
    /// A listing page was not usable.
    case source(SourceError)
    /// The photo could not be decoded, scaled or encoded.
    case imaging(ImagingError)
    /// Writing the gallery folder failed.
    case gallery(GalleryError)

    /// The stage, as a word for logs and the manifest.
    public var stage: String {
        switch self {
        case .transfer: "download"
        case .source: "source"
        case .imaging: "imaging"
        case .gallery: "gallery"
        }
    }

    /// The stage, then the stage's own error.
    public var description: String {
        switch self {
        case .transfer(let e): "download: \(e)"
        case .source(let e): "source: \(e)"
        case .imaging(let e): "imaging: \(e)"
        case .gallery(let e): "gallery: \(e)"
        }
    }
}
