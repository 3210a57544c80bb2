import Foundation

/// One photo as listed by a 500px-style API.
///
/// Strings are kept exactly as the server sent them (NUL bytes, bidi marks, HTML and all):
/// they are untrusted, and escaping is the output's job, never the model's.
///
/// Decoding rules, so one odd photo never costs the page:
/// - required: `id` (integer), `name` (string) and at least one image (`image_url` or a
///   non-empty `images`); a missing or wrong-typed required field fails this item only.
/// - everything else is optional: absent, `null` or wrong-typed gives nil.
/// - `nsfw` fails closed: a value that is present but not understood counts as NSFW.
public struct Photo: Sendable, Hashable, Codable {
    /// The photo's id at its source.
    public var id: Int
    /// The photo's title.
    public var name: String
    /// The source's description text.
    public var description: String?
    /// Whether the source marks the photo not safe for work.
    public var nsfw: Bool
    /// The source's rating.
    public var rating: Double?
    /// The photographer.
    public var user: PhotoUser?
    /// Pixel width of the largest size, as listed.
    public var width: Int?
    /// Pixel height of the largest size, as listed.
    public var height: Int?
    /// `image_url`: a single URL, or the first of several when the server sends an array.
    public var imageURL: String?
    /// Every image size offered.
    public var images: [PhotoImage]
    /// The id as the source spells it when it is not the number in `id` (see `PhotoID`).
    public var sourceID: String?
    /// Author, licence and links, for the credit line (see `PhotoCredit`).
    public var credit: PhotoCredit?
    /// A URL the source asks to be called once the photo is downloaded (Unsplash's
    /// `links.download_location`); never recorded in the gallery.
    public var downloadPing: String?

    /// Creates a photo.
    public init(
        id: Int, name: String, description: String? = nil, nsfw: Bool = false, rating: Double? = nil,
        user: PhotoUser? = nil, width: Int? = nil, height: Int? = nil, imageURL: String? = nil,
        images: [PhotoImage] = [], sourceID: String? = nil, credit: PhotoCredit? = nil, downloadPing: String? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.nsfw = nsfw
        self.rating = rating
        self.user = user
        self.width = width
        self.height = height
        self.imageURL = imageURL
        self.images = images
        self.sourceID = sourceID
        self.credit = credit
        self.downloadPing = downloadPing
    }

    enum CodingKeys: String, CodingKey {
        case id, name, description, nsfw, rating, user, width, height, images, credit
        case imageURL = "image_url"
        case sourceID = "source_id"
    }

    /// Reads a photo from the API's JSON, tolerating odd types (numbers as strings and the like).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        description = c.lenient(String.self, forKey: .description)
        nsfw = Self.decodeNSFW(c)
        rating = c.lenient(Double.self, forKey: .rating)
        user = c.lenient(PhotoUser.self, forKey: .user)
        width = c.lenient(Int.self, forKey: .width)
        height = c.lenient(Int.self, forKey: .height)
        // 500px sends a string for one requested size and an array for several.
        imageURL = c.lenient(String.self, forKey: .imageURL)
            ?? c.lenient([String].self, forKey: .imageURL)?.first
        let lossy = c.lenient([LossyElement<PhotoImage>].self, forKey: .images) ?? []
        images = partition(lossy).items
        sourceID = c.lenient(String.self, forKey: .sourceID)
        credit = c.lenient(PhotoCredit.self, forKey: .credit)
        guard imageURL != nil || !images.isEmpty else {
            throw DecodingError.keyNotFound(
                CodingKeys.imageURL,
                .init(codingPath: decoder.codingPath, debugDescription: "no image_url and no usable images")
            )
        }
    }

    /// Writes the photo in the API's JSON shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(description, forKey: .description)
        try c.encode(nsfw, forKey: .nsfw)
        try c.encodeIfPresent(rating, forKey: .rating)
        try c.encodeIfPresent(user, forKey: .user)
        try c.encodeIfPresent(width, forKey: .width)
        try c.encodeIfPresent(height, forKey: .height)
        try c.encodeIfPresent(imageURL, forKey: .imageURL)
        try c.encode(images, forKey: .images)
        try c.encodeIfPresent(sourceID, forKey: .sourceID)
        try c.encodeIfPresent(credit, forKey: .credit)
    }

    /// Absent or `null` means safe; a Bool, 0/1 or "true"/"false" is read; anything else
    /// is treated as NSFW so a server bug can only hide a photo, never expose one.
    private static func decodeNSFW(_ c: KeyedDecodingContainer<CodingKeys>) -> Bool {
        guard c.contains(.nsfw), (try? c.decodeNil(forKey: .nsfw)) == false else { return false }
        if let flag = try? c.decode(Bool.self, forKey: .nsfw) { return flag }
        if let number = try? c.decode(Int.self, forKey: .nsfw) { return number != 0 }
        if let text = try? c.decode(String.self, forKey: .nsfw) {
            switch text.lowercased() {
            case "false", "0", "no": return false
            default: return true
            }
        }
        return true
    }
}

/// The photographer, as far as the gallery needs one.
public struct PhotoUser: Sendable, Hashable, Codable {
    /// The photographer's user name.
    public var username: String
    /// The photographer's full name, when given.
    public var fullname: String?

    /// Creates a user.
    public init(username: String, fullname: String? = nil) {
        self.username = username
        self.fullname = fullname
    }

    /// The name the gallery credits: the full name when given and not empty, else the user name.
    public var displayName: String {
        if let fullname, !fullname.isEmpty { return fullname }
        return username
    }

    /// Reads a user from the API's JSON.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        username = try c.decode(String.self, forKey: .username)
        fullname = c.lenient(String.self, forKey: .fullname)
    }
}

/// One rendition of a photo: a 500px size code (or pixel size) and its URL.
public struct PhotoImage: Sendable, Hashable, Codable {
    /// The size as the server names it: a 500px size code such as 4, or a pixel size such as 2048.
    public var size: Int
    /// Where this size is downloaded from.
    public var url: String

    /// An image of size code `size` at `url`.
    public init(size: Int, url: String) {
        self.size = size
        self.url = url
    }

    enum CodingKeys: String, CodingKey { case size, url, httpsURL = "https_url" }

    /// Reads an image entry from the API's JSON.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // Some servers send the size as a string ("2048"); accept it, reject anything else.
        if let number = try? c.decode(Int.self, forKey: .size) {
            size = number
        } else if let number = Int(try c.decode(String.self, forKey: .size)) {
            size = number
        } else {
            throw DecodingError.typeMismatch(
                Int.self, .init(codingPath: c.codingPath + [CodingKeys.size], debugDescription: "size is not a number")
            )
        }
        // `url` is the field the API documents; `https_url` only stands in when it is absent.
        url = try c.lenient(String.self, forKey: .url) ?? c.decode(String.self, forKey: .httpsURL)
    }

    /// Writes the image entry in the API's JSON shape.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(size, forKey: .size)
        try c.encode(url, forKey: .url)
    }
}
