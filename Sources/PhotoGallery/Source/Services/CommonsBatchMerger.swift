import Foundation

/// Merges the answers of one MediaWiki batch by `pageid` (a page's `imageinfo` may come in a later
/// answer than the page itself) and turns the merged pages into photos.
struct CommonsBatchMerger {
    private var order: [Int] = []
    private var pages: [Int: [String: Any]] = [:]
    private var unnumbered: [[String: Any]] = []

    /// Takes in one answer's pages.
    mutating func add(_ answer: [[String: Any]]) {
        for page in answer {
            guard let id = JSONFields.int(page["pageid"]) else {
                unnumbered.append(page)
                continue
            }
            if var known = pages[id] {
                for (key, value) in page where known[key] == nil || key == "imageinfo" { known[key] = value }
                pages[id] = known
            } else {
                order.append(id)
                pages[id] = page
            }
        }
    }

    /// The batch as a page of photos; pages that cannot be photos are skipped with their reason.
    func page() -> PhotoPage {
        let sorted = SkippedItem.sort(order) { Self.photo(pages[$0]!, id: $0) }
        var skipped = sorted.skipped
        for (offset, _) in unnumbered.enumerated() {
            skipped.append(SkippedItem(index: order.count + offset, reason: "missing field 'pageid'"))
        }
        return PhotoPage(photos: sorted.photos, skipped: skipped)
    }

    typealias Reason = SkippedItem.Reason

    /// Raster formats the gallery decodes; Commons also holds SVG, TIFF, PDF, audio and video.
    static let rasterTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp"]

    static func photo(_ page: [String: Any], id: Int) -> Result<Photo, Reason> {
        let title = JSONFields.string(page["title"]) ?? "File:\(id)"
        guard let info = JSONFields.array(page["imageinfo"])?.first as? [String: Any] else {
            return .failure(Reason(text: "\(title): no imageinfo"))
        }
        guard let url = JSONFields.text(info["url"]) else { return .failure(Reason(text: "\(title): no image url")) }
        let mime = JSONFields.string(info["mime"])?.lowercased() ?? ""
        guard rasterTypes.contains(mime) else {
            return .failure(Reason(text: "\(title): \(mime.isEmpty ? "no MIME type" : mime) is not an image the gallery decodes"))
        }
        let width = JSONFields.int(info["width"])
        let height = JSONFields.int(info["height"])
        let meta = JSONFields.object(info["extmetadata"]) ?? [:]
        func field(_ key: String) -> (text: String, link: String?)? {
            guard let raw = JSONFields.string(JSONFields.object(meta[key])?["value"]) else { return nil }
            let reduced = HTMLText.reduce(raw)
            return reduced.text.isEmpty && reduced.link == nil ? nil : reduced
        }
        let artist = field("Artist")
        let fileName = title.hasPrefix("File:") ? String(title.dropFirst(5)) : title
        let stem = (fileName as NSString).deletingPathExtension
        let objectName = field("ObjectName")?.text
        let credit = PhotoCredit(
            author: artist?.text.isEmpty == false ? artist?.text : nil,
            authorURL: artist?.link,
            licence: field("LicenseShortName")?.text ?? field("UsageTerms")?.text,
            licenceURL: field("LicenseUrl").map { $0.link ?? $0.text },
            pageURL: JSONFields.text(info["descriptionurl"]),
            service: "Wikimedia Commons", serviceURL: "https://commons.wikimedia.org/")
        let edge = max(width ?? 0, height ?? 0)
        return .success(Photo(
            id: id, name: objectName?.isEmpty == false ? objectName! : (stem.isEmpty ? title : stem),
            description: field("ImageDescription")?.text,
            user: credit.author.map { PhotoUser(username: $0) }, width: width, height: height,
            images: [PhotoImage(size: edge > 0 ? edge : 1, url: url)], credit: credit))
    }
}
