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

/// One page of a photo's comments (`/photos/ID/comments?page=N`), its comments under `comments`,
/// decoded as tolerantly as `PhotoPage`.
public typealias CommentPage = ListingPage<Comment>

extension Comment: ListingItem {
    /// Comments are listed under `comments`.
    public static var listKey: String { "comments" }
}

extension ListingPage where Item == Comment {
    /// The usable comments of the page.
    public var comments: [Comment] {
        get { items }
        set { items = newValue }
    }

    /// A page of comments.
    public init(currentPage: Int? = nil, totalPages: Int? = nil, totalItems: Int? = nil, comments: [Comment], skipped: [SkippedItem] = []) {
        self.init(currentPage: currentPage, totalPages: totalPages, totalItems: totalItems, items: comments, skipped: skipped)
    }
}
