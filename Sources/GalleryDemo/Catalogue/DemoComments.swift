/// One comment under a demo photo.
public struct DemoComment: Sendable, Hashable {
    public let id: Int
    public let body: String
    public let username: String
}

extension DemoCatalogue {
    /// Comments per page of `/photos/ID/comments`, as on 500px.
    public static let commentsPerPage = 20

    /// How many comments a photo has (0 to 45, seeded by its id).
    public func commentCount(of photo: DemoPhoto) -> Int {
        var generator = SeededGenerator(photo.id, .comments)
        return Int(generator.next() % 46)
    }

    /// One page (1-based) of a photo's comments and how many pages there are (at least 1, so an
    /// uncommented photo still answers page 1 with an empty list).
    public func comments(of photo: DemoPhoto, page: Int) -> (comments: [DemoComment], totalPages: Int) {
        let count = commentCount(of: photo)
        let totalPages = max(1, (count + Self.commentsPerPage - 1) / Self.commentsPerPage)
        guard page >= 1 else { return ([], totalPages) }
        let start = (page - 1) * Self.commentsPerPage
        guard start < count else { return ([], totalPages) }
        let comments = (start..<min(count, start + Self.commentsPerPage)).map { index in
            var generator = SeededGenerator(photo.id &* 64 &+ index, .comments, salt: 0xC0)
            return DemoComment(
                id: photo.id * 100 + index,
                body: generator.pick(DemoText.commentBodies),
                username: DemoPhotoFactory.username(Int(generator.next() % 10_000))
            )
        }
        return (comments, totalPages)
    }
}
