import Foundation

/// One comment on a photo. `body` is untrusted text, kept as sent.
///
/// Required: `id` and `body`; the author and date are optional.
public struct Comment: Sendable, Hashable, Codable {
    public var id: Int
    public var body: String
    public var user: PhotoUser?
    /// The server's timestamp, kept as text: it is only shown, never computed with.
    public var createdAt: String?

    public init(id: Int, body: String, user: PhotoUser? = nil, createdAt: String? = nil) {
        self.id = id
        self.body = body
        self.user = user
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, body, user
        case createdAt = "created_at"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        body = try c.decode(String.self, forKey: .body)
        user = c.lenient(PhotoUser.self, forKey: .user)
        createdAt = c.lenient(String.self, forKey: .createdAt)
    }
}

/// One page of a photo's comments (`/photos/ID/comments?page=N`), decoded as tolerantly
/// as `PhotoPage`.
public struct CommentPage: Sendable, Hashable, Codable {
    public var currentPage: Int?
    public var totalPages: Int?
    public var totalItems: Int?
    public var comments: [Comment]
    /// Items of `comments` that could not be decoded. Not part of the encoded form.
    public var skipped: [SkippedItem]

    public init(currentPage: Int? = nil, totalPages: Int? = nil, totalItems: Int? = nil, comments: [Comment], skipped: [SkippedItem] = []) {
        self.currentPage = currentPage
        self.totalPages = totalPages
        self.totalItems = totalItems
        self.comments = comments
        self.skipped = skipped
    }

    enum CodingKeys: String, CodingKey {
        case comments
        case currentPage = "current_page"
        case totalPages = "total_pages"
        case totalItems = "total_items"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        currentPage = c.lenient(Int.self, forKey: .currentPage)
        totalPages = c.lenient(Int.self, forKey: .totalPages)
        totalItems = c.lenient(Int.self, forKey: .totalItems)
        (comments, skipped) = partition(try c.decode([LossyElement<Comment>].self, forKey: .comments))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(currentPage, forKey: .currentPage)
        try c.encodeIfPresent(totalPages, forKey: .totalPages)
        try c.encodeIfPresent(totalItems, forKey: .totalItems)
        try c.encode(comments, forKey: .comments)
    }

    /// Decodes a comment page fetched from `url`.
    ///
    /// - Throws: `SourceError` naming `url` when the body is not JSON or has no `comments` array.
    public static func decode(_ data: Data, from url: URL) throws(SourceError) -> CommentPage {
        try decodePage(CommentPage.self, from: data, listKey: CodingKeys.comments.stringValue, page: url)
    }
}
