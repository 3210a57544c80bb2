import Foundation

/// The JSON bodies of the demo API, shaped like 500px's v1 API (snake_case keys).
///
/// Kept as plain `Encodable` values apart from the routes so tests can compare documents, and
/// encoded with sorted keys so the same request always gives byte-identical JSON.
enum CatalogueJSON {
    struct User: Encodable {
        let username: String
    }

    struct Image: Encodable {
        let size: Int
        let url: String
        let httpsURL: String
        let format: String
        let width: Int
        let height: Int

        enum CodingKeys: String, CodingKey {
            case size, url, format, width, height
            case httpsURL = "https_url"
        }
    }

    struct Photo: Encodable {
        let id: Int
        let name: String
        let description: String
        let nsfw: Bool
        let rating: Double
        let user: User
        let width: Int
        let height: Int
        let imageURL: String
        let imageFormat: String
        let images: [Image]

        enum CodingKeys: String, CodingKey {
            case id, name, description, nsfw, rating, user, width, height, images
            case imageURL = "image_url"
            case imageFormat = "image_format"
        }
    }

    struct PhotoList: Encodable {
        let currentPage: Int
        let totalPages: Int
        let totalItems: Int
        let feature: String
        let photos: [Photo]

        enum CodingKeys: String, CodingKey {
            case feature, photos
            case currentPage = "current_page"
            case totalPages = "total_pages"
            case totalItems = "total_items"
        }
    }

    struct SinglePhoto: Encodable {
        let photo: Photo
    }

    struct Comment: Encodable {
        let id: Int
        let body: String
        let user: User
    }

    struct CommentList: Encodable {
        let currentPage: Int
        let totalPages: Int
        let comments: [Comment]

        enum CodingKeys: String, CodingKey {
            case comments
            case currentPage = "current_page"
            case totalPages = "total_pages"
        }
    }

    struct Failure: Encodable {
        let status: Int
        let error: String
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
