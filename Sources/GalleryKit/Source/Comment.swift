import Foundation

/// One comment on a photo. `body` is untrusted text, kept as sent.
///
/// Required: `id` and `body`; the author and date are optional.
public struct Comment: Sendable, Hashable, Codable {
    /// The comment's id.
    public var id: Int
    /// The comment's text (plain text; escaped when rendered).
    public var body: String
    /// Who wrote it, when given.
    public var user: PhotoUser?
    /// The server's timestamp, kept as text: it is only shown, never computed with.
    public var createdAt: String?

    /// Creates a comment.
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

    /// Reads a comment from the API's JSON.
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
    /// The page number, as the API reported it.
    public var currentPage: Int?
    /// The number of pages, when the API says.
    public var totalPages: Int?
    /// The number of comments in all pages, when the API says.
    public var totalItems: Int?
    /// The usable comments of the page.
    public var comments: [Comment]
    /// Items of `comments` that could not be decoded. Not part of the encoded form.
    public var skipped: [SkippedItem]

    /// A page of comments.
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

    /// Reads a page, skipping comments that cannot be read.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        currentPage = c.lenient(Int.self, forKey: .currentPage)
        totalPages = c.lenient(Int.self, forKey: .totalPages)
        totalItems = c.lenient(Int.self, forKey: .totalItems)
        (comments, skipped) = partition(try c.decode([LossyElement<Comment>].self, forKey: .comments))
    }

    /// Writes the page in the API's JSON shape.
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
