/// Who made a photo, under which licence, and where it lives at its source: what a gallery must
/// show to credit the photo the way the service asks.
///
/// Every string is untrusted text from the source, kept as sent; links are kept only when they are
/// http(s) (checked again when rendered, see `CreditLine`).
public struct PhotoCredit: Sendable, Hashable, Codable {
    /// The author's name as the source shows it (already reduced to text when the source sends HTML).
    public var author: String?
    /// The author's page at the source.
    public var authorURL: String?
    /// The licence's short name, e.g. "CC BY-SA 4.0", or the service's own licence ("Unsplash License").
    public var licence: String?
    /// The licence's text.
    public var licenceURL: String?
    /// The photo's own page at the source.
    public var pageURL: String?
    /// The service's display name, for "Photo by NAME on SERVICE" (e.g. "Unsplash", "Wikimedia Commons").
    public var service: String?
    /// The service's home page, linked from the credit line.
    public var serviceURL: String?

    /// A credit; every part is optional because sources leave parts out.
    public init(author: String? = nil, authorURL: String? = nil, licence: String? = nil, licenceURL: String? = nil,
                pageURL: String? = nil, service: String? = nil, serviceURL: String? = nil) {
        self.author = author
        self.authorURL = authorURL
        self.licence = licence
        self.licenceURL = licenceURL
        self.pageURL = pageURL
        self.service = service
        self.serviceURL = serviceURL
    }

    enum CodingKeys: String, CodingKey {
        case author, licence, service
        case authorURL = "author_url"
        case licenceURL = "licence_url"
        case pageURL = "page_url"
        case serviceURL = "service_url"
    }
}
