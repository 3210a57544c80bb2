import Foundation

/// Reads back the NUL-separated cards ``GalleryOutput`` streamed into its card files, one file
/// after the other, a chunk at a time.
final class CardReader {
    private var paths: [String]
    private var handle: FileHandle?
    private var buffer: [UInt8] = []
    private var start = 0

    init(paths: [String]) { self.paths = paths }

    /// The next card's markup.
    func next() throws(GalleryError) -> [UInt8] {
        while true {
            if let end = buffer[start...].firstIndex(of: 0) {
                let card = Array(buffer[start..<end])
                start = end + 1
                return card
            }
            buffer.removeSubrange(..<start)
            start = 0
            if handle == nil {
                guard !paths.isEmpty else { throw .encoding(path: "index", reason: "fewer cards than counted") }
                let path = paths.removeFirst()
                guard let opened = FileHandle(forReadingAtPath: path) else {
                    throw .system(call: "open", path: path, errno: errno)
                }
                handle = opened
            }
            let chunk = (try? handle?.read(upToCount: 1 << 16)) ?? nil
            if let chunk, !chunk.isEmpty {
                buffer += chunk
            } else {
                try? handle?.close()
                handle = nil
            }
        }
    }
}
