import Foundation

/// A URL list (the text of a file, one image URL per line), read in pieces of ``URLListPieces/size`` of
/// the slice's lines, so that memory holds one piece of photos (and the ids seen, to drop repeated URLs),
/// not the whole list's. A first pass counts the usable lines and collects the rejected ones (for the one
/// "page" a list makes); the second hands the photos on. Each photo's page is its line + 1, which orders
/// the photos when shards are merged.
struct URLListFileSource: PhotoSource {
    /// The list's text.
    var text: String
    /// Its file name: the gallery's source.
    var fileName: String

    var name: String { "urls" }
    var sourceDescription: String { fileName }
    var shardUnit: ShardUnit? { .line }
    var imageURLOrigin: ImageURLOrigin { .user }

    func reader(slice: ShardSpec, context: SourceContext) -> any ListingReader {
        Reader(text: text, fileName: fileName, slice: slice, context: context)
    }

    struct Reader: ListingReader {
        let text: String
        let fileName: String
        let slice: ShardSpec
        let context: SourceContext
        /// Nil until the counting pass has run.
        var pieces: URLListPieces?
        var selector = PhotoSelector(pageLimit: 1, includeNSFW: true)
        var ended = false
        /// The failure to give after the announcement.
        var pending: ListingFailure?

        init(text: String, fileName: String, slice: ShardSpec, context: SourceContext) {
            self.text = text
            self.fileName = fileName
            self.slice = slice
            self.context = context
            selector.keepsSelected = false
        }

        mutating func next() async -> ListingStep? {
            if let failure = pending {
                pending = nil
                return .failure(failure)
            }
            guard !ended else { return nil }
            guard var pieces else { return count() }
            guard !context.isStopping(), let piece = pieces.next() else {
                ended = true
                return nil
            }
            self.pieces = pieces
            var selection = selector.add(PhotoPage(photos: piece.list.photos), number: 1)
            let lineOf = Dictionary(zip(piece.list.photos.map(\.id), piece.list.lines), uniquingKeysWith: { first, _ in first })
            for index in selection.selected.indices {
                selection.selected[index].page = piece.lines[lineOf[selection.selected[index].photo.id] ?? 0] + 1
            }
            return .photos(selection.selected)
        }

        /// The first pass: the one page event of the list, or the failure of a list with no usable line.
        private mutating func count() -> ListingStep {
            var ids: Set<Int> = []
            var rejected: [String] = []
            var counting = URLListPieces(text: text, shard: slice)
            while let piece = counting.next() {
                for photo in piece.list.photos { ids.insert(photo.id) }
                rejected += piece.list.rejected.map { "line \(piece.lines[$0.line - 1] + 1): \($0.reason)" }
            }
            let page = ListedPage(number: 1, totalPages: 1, added: ids.count, skipped: rejected)
            // A shard may own no usable line of a usable list: only a list with none at all is unreadable.
            if ids.isEmpty {
                var whole = URLListPieces(text: text, shard: .whole)
                var anyUsable = false
                while !slice.isWhole, !anyUsable, let piece = whole.next() { anyUsable = !piece.list.photos.isEmpty }
                if !anyUsable {
                    ended = true
                    var announced = page
                    announced.counted = false
                    // Announced first (as the progress shows every list), then failed.
                    pending = ListingFailure(page: nil, reason: "\(fileName): no usable http(s) image URL",
                                                              isSourceError: true)
                    return .page(announced)
                }
            }
            pieces = URLListPieces(text: text, shard: slice)
            return .page(page)
        }
    }
}

/// The lines of a URL list owned by a shard, parsed a piece at a time, each with the line number
/// (from 0, in the whole list) of every line of the piece.
struct URLListPieces {
    /// Lines of a piece.
    static let size = 1_000

    private let text: Substring
    private let shard: ShardSpec
    private var position: Substring.Index
    private var offset = 0
    private var done = false

    init(text: String, shard: ShardSpec) {
        // Editors on Windows start a UTF-8 file with a byte-order mark; it is not part of the URL.
        self.text = text.hasPrefix("\u{FEFF}") ? Substring(text.dropFirst()) : Substring(text)
        self.shard = shard
        position = self.text.startIndex
    }

    /// The next piece, or nil at the end of the list.
    mutating func next() -> (list: URLListParser, lines: [Int])? {
        var piece: [Substring] = []
        var lines: [Int] = []
        // Split on `isNewline`, as URLListParser does ("\r\n" is one Character).
        while piece.count < Self.size, !done {
            let (end, next) = TextLines.line(in: text, from: position)
            if shard.owns(line: offset) {
                piece.append(text[position..<end])
                lines.append(offset)
            }
            offset += 1
            if let next { position = next } else { done = true }
        }
        guard !piece.isEmpty else { return nil }
        return (URLListParser(lines: piece), lines)
    }
}
