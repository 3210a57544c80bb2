// libFuzzer target: the two places that turn server-chosen text into file names.
//
// - GalleryNaming (gallery folder): the input's first line is "ID EXT", the rest is the photo's name.
// - DestinationNamer (download command): every line of the input is a URL, named in order.
//
// Invariants for every name: not empty, not "." or "..", no "/" and no NUL, at most 255 bytes
// (and room for the ".part.meta" the engine appends while downloading), deterministic. A gallery
// original is one bucket folder under photos/, then such a name. Gallery
// names are also "ID-slug.ext" in [a-z0-9-.] with exactly one dot and never start with "-";
// downloaded names are never hidden (leading "."), never one of our working suffixes, and unique
// within one run.
@testable import PhotoGallery
@testable import GalleryTransfer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNaming(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
    checkGalleryNaming(text)
    checkDestinationNamer(text)
    return 0
}

func checkComponent(_ name: String, limit: Int, _ what: String) {
    require(!name.isEmpty, "\(what): empty name")
    require(name != "." && name != "..", "\(what): \(name.debugDescription)")
    require(!name.utf8.contains(0x2F) && !name.utf8.contains(0), "\(what): separator or NUL in \(name.debugDescription)")
    require(name.utf8.count <= limit, "\(what): \(name.utf8.count) bytes > \(limit): \(name.debugDescription)")
}

func checkGalleryNaming(_ text: String) {
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let head = parts[0].split(separator: " ", maxSplits: 1).map(String.init)
    let id = head.first.flatMap { Int($0) } ?? text.utf8.count
    let ext = head.count > 1 ? head[1] : "jpg"
    let name = parts.count > 1 ? String(parts[1]) : String(parts[0])

    let file = GalleryNaming.fileName(id: id, name: name, extension: ext)
    require(file == GalleryNaming.fileName(id: id, name: name, extension: ext), "fileName not deterministic")
    checkComponent(file, limit: GalleryNaming.maxNameBytes, "fileName")
    require(file.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E },
            "fileName has characters outside [a-z0-9-.]: \(file.debugDescription)")
    require(file.utf8.filter { $0 == 0x2E }.count == 1, "fileName needs exactly one dot: \(file.debugDescription)")
    require(!file.hasPrefix("-") && !file.hasPrefix("."), "fileName starts with - or .: \(file.debugDescription)")
    require(file.hasPrefix(id < 0 ? "n\(id.magnitude)-" : "\(id)-"), "fileName lost the id: \(file.debugDescription)")

    // The original sits in one bucket folder (`photos/BUCKET/NAME`, the bucket three digits from
    // the id) and keeps room for NAME.part.meta while downloading.
    let original = GalleryNaming.originalPath(id: id, name: name, extension: ext)
    let originalParts = original.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    require(originalParts.count == 3 && originalParts[0] == "photos", "originalPath \(original.debugDescription)")
    require(originalParts[1] == GalleryNaming.bucket(id: id)
            && originalParts[1].utf8.count == 3 && originalParts[1].utf8.allSatisfy { (0x30...0x39).contains($0) },
            "originalPath bucket folder \(original.debugDescription)")
    checkComponent(originalParts[2] + ".part.meta", limit: GalleryNaming.maxNameBytes, "originalPath while partial")

    // A thumbnail is thumbs/SIZE/BUCKET/NAME, a photo's page PAGES/BUCKET/NAME: fixed folders, the
    // same bucket as the original, then one name.
    let bucket = GalleryNaming.bucket(id: id)
    let thumbnail = GalleryNaming.thumbnailPath(id: id, name: name, size: id, extension: ext)
    let page = GalleryNaming.photoPagePath(id: id, name: name)
    for (path, folders) in [(thumbnail, ["thumbs", "\(max(id, 0))", bucket]), (page, [GalleryNaming.pagesFolder, bucket])] {
        let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        require(components.count == folders.count + 1 && Array(components.dropLast()) == folders,
                "path \(path.debugDescription): expected the folders \(folders.joined(separator: "/"))")
        checkComponent(components.last!, limit: GalleryNaming.maxNameBytes, "path \(path)")
    }
}

func checkDestinationNamer(_ text: String) {
    let urls = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var first = DestinationNamer(), second = DestinationNamer()
    var seen = Set<String>()
    for url in urls {
        let name = first.name(for: url)
        require(name == second.name(for: url), "DestinationNamer not deterministic for \(url.debugDescription)")
        // The engine writes NAME.part and NAME.part.meta next to NAME: those must fit too.
        checkComponent(name + ".part.meta", limit: 255, "DestinationNamer")
        require(!name.hasPrefix("."), "hidden name \(name.debugDescription) for \(url.debugDescription)")
        require(!name.hasSuffix(".part") && !name.hasSuffix(".part.meta") && !name.hasSuffix(".tmp"),
                "working-file suffix in \(name.debugDescription)")
        require(!name.utf8.contains(0x5C), "backslash in \(name.debugDescription)")
        require(seen.insert(name).inserted, "duplicate name \(name.debugDescription)")
    }
}
