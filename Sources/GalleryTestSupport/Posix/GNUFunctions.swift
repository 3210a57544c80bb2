#if canImport(Glibc)
import Glibc

/// glibc functions that Swift's Glibc module hides because they sit behind `_GNU_SOURCE` or
/// `_XOPEN_SOURCE`. Looked up once with `dlsym`, since a C shim target just for tests would mean
/// touching Package.swift.
enum GNUFunctions {
    typealias Accept4 = @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias Strptime = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutablePointer<tm>) -> UnsafeMutablePointer<CChar>?

    nonisolated(unsafe) private static let process = dlopen(nil, RTLD_NOW)

    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let address = dlsym(process, name) else { fatalError("glibc lacks \(name)") }
        return unsafeBitCast(address, to: type)
    }

    static let accept4 = symbol("accept4", as: Accept4.self)
    static let pipe2 = symbol("pipe2", as: Pipe2.self)
    static let strptime = symbol("strptime", as: Strptime.self)
}
#endif
