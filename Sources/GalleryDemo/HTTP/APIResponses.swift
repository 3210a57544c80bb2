import Foundation
import GalleryHTTPServer

/// JSON responses with the headers every API answer carries.
enum APIResponses {
    static func json(_ value: some Encodable, status: Int = 200) -> HTTPServerResponse {
        do {
            let data = try CatalogueJSON.encode(value)
            return HTTPServerResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
                                      body: .bytes(Array(data)))
        } catch {
            // Encoding plain structs of strings and numbers cannot fail; if it ever does, say so.
            return .text(500, "\(error)")
        }
    }

    static func error(_ status: Int, _ message: String) -> HTTPServerResponse {
        json(CatalogueJSON.Failure(status: status, error: message), status: status)
    }
}
