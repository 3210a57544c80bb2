import GalleryImaging

/// A manifest photo as `gallery.json` holds it, written by hand (``JSONText``): the bytes `JSONEncoder`
/// gives with `.prettyPrinted`, `.sortedKeys` and `.withoutEscapingSlashes` for an element of `photos`,
/// without building the encoder's tree of boxed values for every photo of the run. Keys in ascending
/// order of their UTF-8 bytes; an optional member that is nil left out. ManifestJSONTests compares the
/// two on generated photos, and the manifest tests compare whole files with ``GalleryManifest/encoded()``.
extension GalleryManifest.Photo {
    /// The photo as the element of the manifest's `photos` array: its lines indented as at `level` (2
    /// in the manifest: the object and the array), the first one too, no comma or newline around it.
    /// Throws ``JSONText/NonFinite`` for a NaN or an infinity, which `JSONEncoder` refuses too.
    func prettyJSON(level: Int) throws(JSONText.NonFinite) -> [UInt8] {
        var out = JSONText(pretty: true, indent: level, capacity: 1024)
        out.writeIndent()
        out.beginObject()
        if let alignment {
            out.key("alignment")
            try alignment.write(into: &out)
        }
        out.field("bytes", bytes)
        if let copies {
            out.key("copies")
            out.beginArray()
            for copy in copies {
                out.element()
                out.int(copy)
            }
            out.endArray()
        }
        if let credit {
            out.key("credit")
            credit.write(into: &out)
        }
        out.field("distance", distance)
        out.field("duplicate_of", duplicateOf)
        out.field("error", error)
        if let exif {
            out.key("exif")
            try exif.write(into: &out)
        }
        out.field("height", height)
        out.key("id")
        out.int(id)
        out.field("matched_by", matchedBy)
        out.key("name")
        out.string(name)
        out.field("original", original)
        out.field("phash", phash)
        out.field("photographer", photographer)
        try out.field("rating", rating)
        out.field("sha256", sha256)
        out.field("source_id", sourceID)
        out.field("source_url", sourceURL)
        out.key("status")
        out.string(status.rawValue)
        out.field("thumbhash", thumbhash)
        out.key("thumbnails")
        out.beginObject()
        for size in JSONText.sortedKeys(thumbnails) {
            out.key(size)
            out.string(thumbnails[size]!)
        }
        out.endObject()
        out.field("width", width)
        out.endObject()
        return out.bytes
    }
}

extension CopyCheck {
    func write(into out: inout JSONText) throws(JSONText.NonFinite) {
        out.beginObject()
        out.key("cell_error")
        try out.double(cellError)
        out.key("coverage")
        try out.double(coverage)
        out.key("offset_x")
        try out.double(offsetX)
        out.key("offset_y")
        try out.double(offsetY)
        out.key("outside")
        try out.double(outside)
        out.key("scale_x")
        try out.double(scaleX)
        out.key("scale_y")
        try out.double(scaleY)
        out.key("trim")
        try out.double(trim)
        out.endObject()
    }
}
