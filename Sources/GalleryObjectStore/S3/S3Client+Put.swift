import Foundation
import GallerySystem
import GalleryTransfer

extension S3Client {
    /// Publishes `body` whole under `key` in one PUT, with `x-amz-content-sha256` set to its hash.
    ///
    /// With `ifNoneMatch` an existing object is never replaced: a HEAD first finds one without sending
    /// the bytes, and the PUT carries `If-None-Match: *`, so a writer that got there in between wins
    /// (the store answers 412 and this returns ``S3PutResult/alreadyExisted``).
    public func put(key: String, body: [UInt8], contentType: String, cacheControl: String? = nil,
                    ifNoneMatch: Bool = false) async throws(S3Error) -> S3PutResult {
        if ifNoneMatch, try await head(key: key) != nil { return .alreadyExisted }
        var headers = HTTPHeaders()
        headers.set("Content-Type", contentType)
        if let cacheControl { headers.set("Cache-Control", cacheControl) }
        if ifNoneMatch { headers.set("If-None-Match", "*") }
        let response = try await send("PUT", .put, key: key, headers: headers, body: body)
        if ifNoneMatch, response.status == 412 { return .alreadyExisted }
        guard (200..<300).contains(response.status) else { throw failure("PUT", key, response) }
        return .created
    }

    /// ``put(key:body:contentType:cacheControl:ifNoneMatch:)`` for `Data`.
    public func put(key: String, data: Data, contentType: String, cacheControl: String? = nil,
                    ifNoneMatch: Bool = false) async throws(S3Error) -> S3PutResult {
        try await put(key: key, body: [UInt8](data), contentType: contentType, cacheControl: cacheControl, ifNoneMatch: ifNoneMatch)
    }

    /// Publishes the file at `path` under `key`: one PUT below ``S3MultipartPolicy/threshold``, a
    /// multipart upload at or above it (parts in flight at once, completed only once every part is
    /// stored, aborted on any failure so no partial object or pending upload is left). With `ifNoneMatch`
    /// an existing object is looked for before the first part and again before the completion.
    public func putFile(key: String, path: String, contentType: String, cacheControl: String? = nil,
                        ifNoneMatch: Bool = false) async throws(S3Error) -> S3PutResult {
        let size = try Self.fileSize(path)
        if size < multipart.threshold {
            let bytes = try Self.read(path, offset: 0, count: Int(size))
            return try await put(key: key, body: bytes, contentType: contentType, cacheControl: cacheControl,
                                 ifNoneMatch: ifNoneMatch)
        }
        if ifNoneMatch, try await head(key: key) != nil { return .alreadyExisted }
        return try await uploadMultipart(key: key, path: path, size: size, contentType: contentType,
                                         cacheControl: cacheControl, ifNoneMatch: ifNoneMatch)
    }

    static func fileSize(_ path: String) throws(S3Error) -> Int64 {
        guard let info = Syscall.status(path) else { throw .file(path: path, reason: "cannot be opened for reading") }
        guard Syscall.isRegular(info) else { throw .file(path: path, reason: "not a regular file") }
        return Int64(info.st_size)
    }

    /// `count` bytes of the file from `offset`; a short read (the file shrank) is an error.
    static func read(_ path: String, offset: Int64, count: Int) throws(S3Error) -> [UInt8] {
        let fd: Int32
        do { fd = try Syscall.open(path, O_RDONLY | O_CLOEXEC) } catch {
            throw .file(path: path, reason: "cannot be opened for reading (\(error.message))")
        }
        defer { Syscall.closeQuietly(fd) }
        let bytes: [UInt8]
        do { bytes = try Syscall.read(fd, count: count, at: offset, path: path) } catch {
            throw .file(path: path, reason: "read at offset \(offset): \(error.message)")
        }
        guard bytes.count == count else {
            throw .file(path: path, reason: "\(bytes.count) bytes where \(count) were expected at offset \(offset) (did the file change?)")
        }
        return bytes
    }
}
