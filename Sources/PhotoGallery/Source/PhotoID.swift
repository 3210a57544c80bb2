/// How a photo's id at its source becomes the gallery's id, which names its files and picks their
/// sub-folder (see `GalleryNaming`).
///
/// The rule:
/// - an id made of ASCII digits that fits in 53 bits (500px, Commons page ids, Pexels, Flickr) is used
///   as it is, so `photos/878/4016878-slug.jpg` stays where every earlier version put it;
/// - any other id (an Openverse UUID, an Unsplash slug id) becomes a 53-bit FNV-1a hash of
///   `SOURCE:ID` (the same function that names URL-list photos), and is fanned out by that number's
///   last three digits like any other. The source's own id is kept beside it (`source_id` in the
///   journal and the manifest), so nothing is lost; the prefix keeps two services' equal strings apart.
///
/// A hash can collide: for a million non-numeric ids the chance that any two share a number is about
/// 1 in 18,000 (birthday bound over 2^53); the second photo would then reuse the first one's files.
public enum PhotoID {
    /// The gallery id for `id` at `source` (e.g. `openverse`).
    public static func gallery(source: String, id: String) -> Int {
        if !id.isEmpty, id.utf8.count <= 16, id.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
           let number = Int(id), number > 0, number <= 0x001F_FFFF_FFFF_FFFF {
            return number
        }
        return URLListParser.stableID(for: source + ":" + id)
    }
}
