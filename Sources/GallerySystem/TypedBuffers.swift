/// `withUnsafeBytes` and `withUnsafeMutableBytes` rethrow untyped errors; these carry a typed one through.
extension Array where Element == UInt8 {
    func withBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeBytes { raw in
            do throws(E) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    mutating func withMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeMutableBytes { raw in
            do throws(E) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
