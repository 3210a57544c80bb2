/// Where a shard's files go: a local folder today, an object store's multipart upload tomorrow.
///
/// Names are relative to the output folder (`00000.tar`, `00000/000000001.jpg`). A file appears under its
/// name only when its handle is closed, so an interrupted shard never leaves a finished-looking file.
public protocol DatasetSink: Sendable {
    /// Opens `name` for streaming writes; bytes are appended in order.
    func create(_ name: String) throws(DatasetFormatError) -> any DatasetFileHandle
    /// Makes the folder `name` (and its parents); an existing one is fine.
    func makeFolder(_ name: String) throws(DatasetFormatError)
    /// Removes the file or folder `name` and what it holds, if it exists (to redo or overwrite a shard).
    func remove(_ name: String)
    func exists(_ name: String) -> Bool
    /// The top-level names of the output folder, sorted (for the incremental and extend modes).
    func list() throws(DatasetFormatError) -> [String]
}

/// One file being written. Not shared between threads: one shard writer owns it.
public protocol DatasetFileHandle: AnyObject {
    /// The name given to `DatasetSink.create`, for error messages.
    var name: String { get }
    func write(_ bytes: UnsafeRawBufferPointer) throws(DatasetFormatError)
    /// Finishes the file and makes it visible under its name.
    func close() throws(DatasetFormatError)
}

extension DatasetFileHandle {
    public func write(_ bytes: [UInt8]) throws(DatasetFormatError) {
        let result: Result<Void, DatasetFormatError> = bytes.withUnsafeBytes { buffer in
            do throws(DatasetFormatError) { try write(buffer); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    public func write(_ string: String) throws(DatasetFormatError) {
        var string = string
        let result: Result<Void, DatasetFormatError> = string.withUTF8 { utf8 in
            do throws(DatasetFormatError) { try write(UnsafeRawBufferPointer(utf8)); return .success(()) }
            catch { return .failure(error) }
        }
        try result.get()
    }
}

/// Checks a sink-relative name: not empty, not absolute, no `.` or `..` component.
func validatedRelativeName(_ name: String) throws(DatasetFormatError) -> String {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    guard !name.isEmpty, !name.hasPrefix("/"),
          !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
        throw .invalidName(name)
    }
    return name
}
