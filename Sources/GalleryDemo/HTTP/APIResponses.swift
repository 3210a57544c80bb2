import Hummingbird

/// JSON responses with the headers every API answer carries.
enum APIResponses {
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        do {
            let data = try CatalogueJSON.encode(value)
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            headers[.contentLength] = String(data.count)
            return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        } catch {
            // Encoding plain structs of strings and numbers cannot fail; if it ever does, say so.
            return Response(status: .internalServerError, body: ResponseBody(byteBuffer: ByteBuffer(string: "\(error)")))
        }
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(CatalogueJSON.Failure(status: status.code, error: message), status: status)
    }
}
