import GalleryImaging

/// `gallery.json` written by hand (``JSONText``), its one coding: the layout of `JSONEncoder` with
/// `.prettyPrinted`, `.sortedKeys` and `.withoutEscapingSlashes`, which wrote it before (ManifestJSONTests
/// compares with fixtures it wrote). A run streams it: ``opening(generated:)``, each photo's ``Photo/element()``
/// after its ``separator(before:)``, then ``closing(source:isEmpty:)``.
extension GalleryManifest {
    /// The file up to its first photo: `generated` and the opening of `photos`.
    static func opening(generated: String) -> [UInt8] {
        var out = JSONText(pretty: false)
        out.string(generated)
        return Array("{\n  \"generated\" : ".utf8) + out.bytes + Array(",\n  \"photos\" : [".utf8)
    }

    /// What goes before photo number `index` (from 0) of `photos`.
    static func separator(before index: Int) -> [UInt8] { index == 0 ? [0x0A] : [0x2C, 0x0A] }

    /// The file after its last photo: the end of `photos` (as the encoder ends an empty array when
    /// there were none), `source` and the closing brace.
    static func closing(source: String, isEmpty: Bool) -> [UInt8] {
        var out = JSONText(pretty: false)
        out.string(source)
        return Array((isEmpty ? "\n\n  ],\n" : "\n  ],\n").utf8) + Array("  \"source\" : ".utf8) + out.bytes + [0x0A, 0x7D]
    }
}

/// A manifest photo as `gallery.json` holds it: keys in ascending order of their UTF-8 bytes, an optional
/// member that is nil left out, without building an encoder's tree of boxed values for every photo.
extension GalleryManifest.Photo {
    /// The photo as an element of the manifest's `photos` (indented two levels). A NaN or an infinity,
    /// which JSON cannot hold, fails naming the photo.
    func element() throws(GalleryError) -> [UInt8] {
        do { return try prettyJSON(level: 2) } catch {
            throw .encoding(path: GalleryNaming.manifestPath, reason: error.reason(photo: id))
        }
    }

    /// The photo as the element of the manifest's `photos` array: its lines indented as at `level` (2
    /// in the manifest: the object and the array), the first one too, no comma or newline around it.
    /// Throws ``JSONText/NonFinite`` for a NaN or an infinity.
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
