import Foundation
import GalleryKit

extension ImageService {
    /// imgproxy's `/info`: the source's `width`, `height` (upright), `size` in bytes and `format`, plus
    /// `thumbhash` (Base64), the ThumbHash placeholder of the image. The path is the processing URL's
    /// form after `/info` (signature, then the source); processing options are parsed and ignored.
    public func info(path: String) async throws(ServeError) -> [UInt8] {
        let url = try configuration.parser.parse(path)
        let source = try resolver.resolve(url.source)
        let bitmap: Bitmap
        let info: ImageSourceInfo?
        do throws(ImagePipelineError) {
            (bitmap, info) = try await pipeline.imageAndSource(for: ImageRequest(source: source, size: .longestEdge(100)))
        } catch {
            throw Self.serveError(error)
        }
        guard let info else { throw ServeError(status: 503, "source \(url.source) was evicted while being described; try again") }
        let hash: ThumbHash
        do { hash = try await pipeline.onWorkers { ThumbHash(of: bitmap) } } catch {
            throw ServeError(status: 503, "cancelled while describing \(url.source)")
        }
        let object: [String: Any] = ["width": info.width, "height": info.height, "size": info.byteCount,
                                     "format": info.format?.rawValue ?? "unknown", "thumbhash": hash.base64]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return [UInt8](data)
    }
}
