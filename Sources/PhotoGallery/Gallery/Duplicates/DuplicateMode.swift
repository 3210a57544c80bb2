/// How a gallery groups copies of one photograph (`--duplicates`). Grouping never deletes a file:
/// every original stays in the folder and in `gallery.json`; the index and the photo pages show one
/// photo a group, crediting every source it was found at.
public enum DuplicateMode: String, Sendable, Hashable, CaseIterable {
    /// Originals with the same bytes (SHA-256) are one photo.
    case exact
    /// Also originals whose perceptual hashes are within ``DuplicateMode/nearThreshold`` bits: the same
    /// photograph resized, recompressed, converted or lightly cropped.
    case near
    /// Every original is its own photo, as the listing has it. The default: a gallery shows what its
    /// sources list unless asked, so a new version never changes an existing gallery's index.
    case off

    /// The largest Hamming distance between the pHashes of two copies of one photo. Chosen on the tests'
    /// transformed copies of real photos (resized 0.25-2x, JPEG quality 40-95, PNG/WebP, cropped up to
    /// 5%, EXIF-rotated) against shifted-scene and unrelated photos (see DuplicateDetectionTests).
    public static let nearThreshold = 10
}
