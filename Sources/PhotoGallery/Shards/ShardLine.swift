import Foundation

/// A photo's line in a shard's part: its journal entry, with the page that orders the merge and the
/// comments its page shows, so the merge writes its entry in `gallery.json`, its card and its page with
/// no other file read.
///
/// ```
/// {"comments":[…],"failure":…,"metadata":{…},"original":{…},"page":3,"thumbnails":[{…},{…}]}
/// ```
/// `page` is the listing page (from 1; for a URL list, the line number from 1), 0 when the journal has
/// none: each page belongs to exactly one shard, so merging the parts by page gives the listing order of
/// one run. Thumbnails go in increasing size; `comments` and `failure` are left out when there are none.
/// Written by hand (``GalleryState/Entry/shardLine(comments:)``) and read with `JSONDecoder`: the entry's
/// one coding each way. The comments are the API's own coding (`Comment` is `Codable`), written in place.
extension GalleryState.Entry: Decodable {
    enum CodingKeys: String, CodingKey { case metadata, original, thumbnails, failure }

    /// Reads the entry of a shard's photo line (its comments are ``ShardLine``'s).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(metadata: try c.decode(PhotoMetadata.self, forKey: .metadata),
                  original: try c.decodeIfPresent(OriginalFile.self, forKey: .original),
                  failure: try c.decodeIfPresent(String.self, forKey: .failure))
        for thumbnail in try c.decode([ThumbnailFile].self, forKey: .thumbnails) { thumbnails[thumbnail.size] = thumbnail }
    }

    /// The merge's order: the listing page, 0 when unknown.
    var page: Int { metadata.page ?? 0 }

    /// The entry's line in a shard's part, without its newline, with `comments` (left out when empty).
    /// Throws ``JSONText/NonFinite`` for a NaN or an infinity, which JSON cannot hold.
    func shardLine(comments: [Comment]?) throws -> [UInt8] {
        var out = JSONText(pretty: false)
        out.beginObject()
        if let comments, !comments.isEmpty {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            out.key("comments")
            out.raw(Array(try encoder.encode(comments)))
        }
        out.field("failure", failure)
        out.key("metadata")
        try metadata.write(into: &out)
        if let original {
            out.key("original")
            try original.write(into: &out)
        }
        out.key("page")
        out.int(page)
        out.key("thumbnails")
        out.beginArray()
        for size in thumbnails.keys.sorted() {
            out.element()
            thumbnails[size]!.write(into: &out)
        }
        out.endArray()
        out.endObject()
        return out.bytes
    }
}

/// A shard's photo line as read: the entry, the page the merge orders by, and the comments.
struct ShardLine: Decodable {
    var entry: GalleryState.Entry
    var page: Int
    var comments: [Comment]

    init(from decoder: any Decoder) throws {
        entry = try GalleryState.Entry(from: decoder)
        let c = try decoder.container(keyedBy: Key.self)
        page = try c.decode(Int.self, forKey: .page)
        comments = try c.decodeIfPresent([Comment].self, forKey: .comments) ?? []
    }

    private enum Key: String, CodingKey { case page, comments }
}
