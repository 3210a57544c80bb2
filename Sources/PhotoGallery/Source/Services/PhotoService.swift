import Foundation

/// Where the next batch of a listing starts: a page number (500px, Openverse, Unsplash, Pexels, Flickr)
/// or the continuation a cursor API handed back (MediaWiki's `continue` object, every key of it).
/// A value, so a plan can record it and a later run can start from it.
public enum SourceCursor: Sendable, Hashable, Codable {
    /// Page `n`, from 1.
    case page(Int)
    /// The keys and values to send back to continue the listing.
    case continuation([String: String])
}

/// One batch of a listing: one page, or, for a cursor API, everything one batch took to arrive whole.
public struct SourceBatch: Sendable, Hashable {
    /// The usable photos, and the items that could not be read (with their reasons).
    public var page: PhotoPage
    /// Where the listing goes on, or nil at its end.
    public var next: SourceCursor?

    /// A batch of `page`, continuing at `next`.
    public init(page: PhotoPage, next: SourceCursor?) {
        self.page = page
        self.next = next
    }
}

/// A photo service: a listing read batch by batch, each photo with its id, title, author and author
/// link, licence name and link, its page at the source, its size and its image URLs by size.
///
/// One file per service under `Source/Services/`. A source holds no state between calls: ``batch(at:client:)``
/// takes a cursor and returns the next one, so any consumer (``GalleryRun``, a plan step, a test) can
/// drive it, or use ``batches(client:limit:)`` as an async sequence. The run reads a service through
/// ``ServiceSource``, the ``PhotoSource`` of a service.
public protocol PhotoService: Sendable {
    /// The `--source` name: `500px`, `commons`, `openverse`, `unsplash`, `pexels`, `flickr`.
    var name: String { get }
    /// What the manifest records as the gallery's source: the service's base URL and the listing asked for.
    var sourceDescription: String { get }
    /// Where the listing starts: page 1 unless the service lists by continuation (Commons).
    var firstCursor: SourceCursor { get }
    /// The batch at `cursor`.
    func batch(at cursor: SourceCursor, client: SourceClient) async throws(SourceError) -> SourceBatch
    /// Called once a photo's original has been downloaded (Unsplash asks for this); by default nothing.
    func didDownload(_ photo: Photo, client: SourceClient) async throws(SourceError)
}

extension PhotoService {
    /// Page 1.
    public var firstCursor: SourceCursor { .page(1) }

    /// Nothing to tell the service.
    public func didDownload(_ photo: Photo, client: SourceClient) async throws(SourceError) {}

    /// The listing as an async sequence of at most `limit` batches (`--pages N`), ending after the last.
    public func batches(client: SourceClient, limit: Int) -> PhotoBatches {
        PhotoBatches(source: self, client: client, limit: limit)
    }
}

/// A source's listing as an `AsyncSequence` of numbered batches (numbers from 1), for any feed consumer.
public struct PhotoBatches: AsyncSequence, Sendable {
    /// A batch and its number (from 1).
    public typealias Element = (number: Int, batch: SourceBatch)

    let source: any PhotoService
    let client: SourceClient
    let limit: Int

    /// Walks the listing, one request (or one batch of requests) per `next()`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let source: any PhotoService
        let client: SourceClient
        let limit: Int
        var cursor: SourceCursor?
        var number = 0

        /// The next batch, nil after the last (or after `limit`); throws the source's error.
        public mutating func next() async throws -> Element? {
            guard let at = cursor, number < limit else { return nil }
            let batch = try await source.batch(at: at, client: client)
            number += 1
            cursor = batch.next
            return (number, batch)
        }
    }

    /// Starts at the source's first cursor.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: source, client: client, limit: limit, cursor: source.firstCursor)
    }
}
