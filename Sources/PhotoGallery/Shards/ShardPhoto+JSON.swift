/// A shard's photo line written by hand (``JSONText``): the bytes `JSONEncoder` gives with `.sortedKeys`
/// and `.withoutEscapingSlashes`, with the record writers the journal uses, for the line a sharded run
/// writes per photo. A photo with comments (rare: a source that has them, and only on request) is left to
/// the encoder. ShardPhotoJSONTests compares the two on generated photos.
extension ShardPhoto {
    /// The line without its newline; nil when the photo has comments. Throws ``JSONText/NonFinite`` for a
    /// NaN or an infinity, which `JSONEncoder` refuses too.
    func json() throws(JSONText.NonFinite) -> [UInt8]? {
        guard comments == nil else { return nil }
        var out = JSONText(pretty: false)
        out.beginObject()
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
        for thumbnail in thumbnails {
            out.element()
            thumbnail.write(into: &out)
        }
        out.endArray()
        out.endObject()
        return out.bytes
    }
}
