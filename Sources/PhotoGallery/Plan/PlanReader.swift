import Foundation
import GallerySystem
import Glibc

/// Reads a plan file a chunk at a time: its header on opening, then its photo lines in order, and
/// checks its end line, so a plan of any size takes constant memory and a damaged one fails naming
/// the file and the line.
public final class PlanReader {
    /// The plan file.
    public let path: String
    /// Its first line.
    public private(set) var header = PlanFile.Header(source: "", version: 0)
    private let lines: LineReader<FileSource>
    private var ended = false
    private let decoder = JSONDecoder()
    /// Lines read so far (the header included).
    public private(set) var line = 0
    /// Photo lines read so far.
    public private(set) var photos = 0
    /// The end line, once read.
    public private(set) var end: PlanFile.End?

    /// Opens the plan at `path` and reads its header.
    public init(path: String) throws(PlanError) {
        self.path = path
        do throws(SystemError) { lines = try LineReader(path: path) } catch {
            let reason = error.errno == ENOENT ? "no such file (make it with 'fetch-gallery plan')" : error.message
            throw .unreadable(path: path, reason: reason)
        }
        guard let first = try nextLine() else { throw .truncated(path: path, lines: 0) }
        guard let decoded = try? decoder.decode(PlanFile.HeaderLine.self, from: Data(first)) else {
            throw .badLine(path: path, line: 1, reason: "not a plan header ({\"plan\":{...}})")
        }
        guard decoded.plan.version == PlanFile.version else {
            throw .badLine(path: path, line: 1, reason: "plan version \(decoded.plan.version), this fetch-gallery reads \(PlanFile.version)")
        }
        header = decoded.plan
    }

    /// The next photo, or nil after the end line (checked against the photos read).
    public func next() throws(PlanError) -> SelectedPhoto? {
        guard !ended else { return nil }
        guard let bytes = try nextLine() else { throw .truncated(path: path, lines: line) }
        let data = Data(bytes)
        if let photo = try? decoder.decode(SelectedPhoto.self, from: data) {
            photos += 1
            return photo
        }
        if let end = try? decoder.decode(PlanFile.EndLine.self, from: data) {
            ended = true
            self.end = end.end
            guard end.end.photos == photos else { throw .countMismatch(path: path, says: end.end.photos, holds: photos) }
            guard try nextLine() == nil else { throw .badLine(path: path, line: line, reason: "a line after the end line") }
            return nil
        }
        do {
            _ = try decoder.decode(SelectedPhoto.self, from: data)
            throw PlanError.badLine(path: path, line: line, reason: "not a planned photo")
        } catch let error as PlanError {
            throw error
        } catch let error as SelectedPhoto.NotAWebURL {
            throw .badLine(path: path, line: line, reason: error.description)
        } catch {
            throw .badLine(path: path, line: line, reason: "not a planned photo (\(error))")
        }
    }

    /// Steps over the next photo line without decoding it (a shard's lines that are not its own, on
    /// a second reading after ``next()`` checked every line); false after the end line.
    public func skip() throws(PlanError) -> Bool {
        guard !ended else { return false }
        guard let bytes = try nextLine() else { throw .truncated(path: path, lines: line) }
        if bytes.starts(with: Array("{\"end\"".utf8)) {
            ended = true
            return false
        }
        photos += 1
        return true
    }

    /// The next whole line; a last line without its newline was cut short.
    private func nextLine() throws(PlanError) -> ArraySlice<UInt8>? {
        let next: LineReader<FileSource>.Line?
        do throws(SystemError) { next = try lines.next() } catch { throw .unreadable(path: path, reason: error.message) }
        guard let next else { return nil }
        line = lines.lineNumber
        guard next.terminated else {
            throw .badLine(path: path, line: line, reason: "the line has no newline (the file was cut short)")
        }
        return next.bytes
    }
}
