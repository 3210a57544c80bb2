/// Why a Parquet file could not be read: the file, and what is wrong with it.
public struct ParquetReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

/// A reason without a file yet (the lower layers); the file reader names the file.
struct ParquetFormatProblem: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` keeping the reader's typed error.
    func withParquetBytes<T>(_ body: (UnsafeRawBufferPointer) throws(ParquetFormatProblem) -> T) throws(ParquetFormatProblem) -> T {
        let result: Result<T, ParquetFormatProblem> = withUnsafeBytes { raw in
            do throws(ParquetFormatProblem) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
