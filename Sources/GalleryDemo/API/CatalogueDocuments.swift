/// Turns catalogue values into the JSON documents the API returns. Needs the server's base URL
/// because 500px image URLs are absolute.
struct CatalogueDocuments: Sendable {
    let catalogue: DemoCatalogue
    /// `http://127.0.0.1:PORT`, no trailing slash.
    let baseURL: String

    /// The image path of one size of one photo, e.g. `/images/4016000/2048.jpg`.
    static func imagePath(photoID: Int, size: DemoImageSize, format: DemoImageFormat) -> String {
        "/images/\(photoID)/\(size.rawValue).\(format.fileExtension)"
    }

    func photo(_ photo: DemoPhoto, sizes: [DemoImageSize]) -> CatalogueJSON.Photo {
        let images = sizes.sorted().map { size in
            let url = baseURL + Self.imagePath(photoID: photo.id, size: size, format: photo.format)
            let (width, height) = photo.dimensions(of: size)
            return CatalogueJSON.Image(size: size.rawValue, url: url, httpsURL: url,
                                       format: photo.format.fileExtension == "png" ? "png" : "jpeg",
                                       width: width, height: height)
        }
        return CatalogueJSON.Photo(
            id: photo.id, name: photo.name, description: photo.description, nsfw: photo.nsfw,
            rating: photo.rating, user: .init(username: photo.username), width: photo.width,
            height: photo.height, imageURL: images.last?.url ?? "", imageFormat: images.last?.format ?? "jpeg",
            images: images
        )
    }

    func list(page number: Int, pageSize: Int, feature: String, sizes: [DemoImageSize]) -> CatalogueJSON.PhotoList {
        let page = catalogue.page(number, size: pageSize)
        return CatalogueJSON.PhotoList(
            currentPage: number, totalPages: page.totalPages, totalItems: page.totalItems, feature: feature,
            photos: page.photos.map { photo($0, sizes: sizes) }
        )
    }

    func comments(of photo: DemoPhoto, page: Int) -> CatalogueJSON.CommentList {
        let (comments, totalPages) = catalogue.comments(of: photo, page: page)
        return CatalogueJSON.CommentList(
            currentPage: page, totalPages: totalPages,
            comments: comments.map { .init(id: $0.id, body: $0.body, user: .init(username: $0.username)) }
        )
    }
}
