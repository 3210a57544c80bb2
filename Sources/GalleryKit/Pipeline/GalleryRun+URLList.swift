import Foundation

extension GalleryRun {
    /// A URL list, in pieces of ``URLListPieces/size`` of this shard's lines, so that memory holds one
    /// piece of photos (and the ids seen, to drop repeated URLs), not the whole list's. A first pass
    /// counts the usable lines and collects the rejected ones (for the one "page" event a list makes);
    /// the second hands the photos on. Each line is a "page" of its own (line + 1), which orders the
    /// photos when shards are merged.
    func feedURLList(_ text: String, name: String, into feed: AsyncStream<QueuedPhoto>.Continuation,
                     journal: Journal?) async {
        let shard = job.shard ?? .whole
        var ids: Set<Int> = []
        var rejected: [String] = []
        var counting = URLListPieces(text: text, shard: shard)
        while let piece = counting.next() {
            for photo in piece.list.photos { ids.insert(photo.id) }
            rejected += piece.list.rejected.map { "line \(piece.lines[$0.line - 1] + 1): \($0.reason)" }
        }
        let added = ids.count
        ids = []
        emit(.pageFetched(page: 1, totalPages: 1, added: added, skippedItems: rejected))
        // A shard may own no usable line of a usable list: only a list with none at all is unreadable.
        if added == 0 {
            var whole = URLListPieces(text: text, shard: .whole)
            var anyUsable = false
            while job.shard != nil, !anyUsable, let piece = whole.next() { anyUsable = !piece.list.photos.isEmpty }
            if !anyUsable {
                count { $0.sourceError = "\(name): no usable http(s) image URL" }
                return
            }
        }
        count { $0.pagesFetched = 1 }
        var selector = PhotoSelector(pageLimit: 1, includeNSFW: true)
        selector.keepsSelected = false
        var pieces = URLListPieces(text: text, shard: shard)
        while !isStopping, let piece = pieces.next() {
            var selection = selector.add(PhotoPage(photos: piece.list.photos), number: 1)
            let lineOf = Dictionary(zip(piece.list.photos.map(\.id), piece.list.lines), uniquingKeysWith: { first, _ in first })
            for index in selection.selected.indices {
                selection.selected[index].page = piece.lines[lineOf[selection.selected[index].photo.id] ?? 0] + 1
            }
            await hand(selection.selected, to: feed, journal: journal)
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
    mutating func next() -> (list: URLListSource, lines: [Int])? {
        var piece: [Substring] = []
        var lines: [Int] = []
        // Split on `isNewline`, as URLListSource does ("\r\n" is one Character).
        while piece.count < Self.size, !done {
            let end = text[position...].firstIndex(where: \.isNewline) ?? text.endIndex
            if shard.owns(line: offset) {
                piece.append(text[position..<end])
                lines.append(offset)
            }
            offset += 1
            if end == text.endIndex { done = true } else { position = text.index(after: end) }
        }
        guard !piece.isEmpty else { return nil }
        return (URLListSource(parsing: piece.joined(separator: "\n")), lines)
    }
}
