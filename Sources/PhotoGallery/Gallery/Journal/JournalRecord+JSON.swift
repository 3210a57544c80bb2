import GalleryImaging

/// A journal record as its JSON line, written by hand (``JSONText``): the same bytes as `JSONEncoder` with
/// `.sortedKeys` and `.withoutEscapingSlashes` gives for the `Codable` conformances, at a fraction of the
/// cost (a record was about 40 µs through the encoder). Keys go in ascending order of their UTF-8 bytes;
/// an optional member that is nil is left out, as the synthesized `encodeIfPresent` leaves it out.
/// JournalRecordJSONTests compares the two on generated records.
extension JournalRecord {
    /// The record as one compact JSON object, no newline. Throws ``JSONText/NonFinite`` for a NaN or an
    /// infinity, which `JSONEncoder` refuses too.
    func json() throws(JSONText.NonFinite) -> [UInt8] {
        var out = JSONText(pretty: false)
        out.beginObject()
        switch self {
        case let .seen(metadata):
            out.key("photo")
            try metadata.write(into: &out)
            out.key("type")
            out.raw("\"seen\"")
        case let .original(id, file):
            out.key("file")
            try file.write(into: &out)
            out.key("id")
            out.int(id)
            out.key("type")
            out.raw("\"original\"")
        case let .thumbnail(id, file):
            out.key("file")
            file.write(into: &out)
            out.key("id")
            out.int(id)
            out.key("type")
            out.raw("\"thumbnail\"")
        case let .failed(id, reason):
            out.key("id")
            out.int(id)
            out.key("reason")
            out.string(reason)
            out.key("type")
            out.raw("\"failed\"")
        }
        out.endObject()
        return out.bytes
    }
}

extension PhotoMetadata {
    func write(into out: inout JSONText) throws(JSONText.NonFinite) {
        out.beginObject()
        if let credit {
            out.key("credit")
            credit.write(into: &out)
        }
        out.field("description", description)
        out.field("height", height)
        out.key("id")
        out.int(id)
        out.key("name")
        out.string(name)
        out.field("page", page)
        out.field("photographer", photographer)
        try out.field("rating", rating)
        out.field("source_id", sourceID)
        out.field("source_url", sourceURL)
        out.field("width", width)
        out.endObject()
    }
}

extension PhotoCredit {
    func write(into out: inout JSONText) {
        out.beginObject()
        out.field("author", author)
        out.field("author_url", authorURL)
        out.field("licence", licence)
        out.field("licence_url", licenceURL)
        out.field("page_url", pageURL)
        out.field("service", service)
        out.field("service_url", serviceURL)
        out.endObject()
    }
}

extension OriginalFile {
    func write(into out: inout JSONText) throws(JSONText.NonFinite) {
        out.beginObject()
        out.key("bytes")
        out.int(bytes)
        if let exif {
            out.key("exif")
            try exif.write(into: &out)
        }
        out.field("grey", grey?.base64)
        out.field("height", height)
        out.key("path")
        out.string(path)
        out.field("phash", phash?.hex)
        out.key("sha256")
        out.string(sha256)
        out.field("thumbhash", thumbhash)
        out.field("width", width)
        out.endObject()
    }
}

extension ThumbnailFile {
    func write(into out: inout JSONText) {
        out.beginObject()
        out.field("height", height)
        out.key("path")
        out.string(path)
        out.key("size")
        out.int(size)
        out.field("width", width)
        out.endObject()
    }
}

extension ExifMetadata {
    func write(into out: inout JSONText) throws(JSONText.NonFinite) {
        out.beginObject()
        try out.field("altitude", altitude)
        out.field("date_taken", dateTaken)
        try out.field("exposure_time", exposureTime)
        try out.field("f_number", fNumber)
        try out.field("focal_length", focalLength)
        out.field("iso", iso)
        try out.field("latitude", latitude)
        out.field("lens", lens)
        try out.field("longitude", longitude)
        out.field("make", make)
        out.field("model", model)
        out.endObject()
    }
}
