import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// https sources through the project's engine: certificates verified (a private CA with
/// `--ca-certificates`), and distinct sources of one host multiplexed over one HTTP/2 connection.
@Suite(.serialized) struct ServeHTTPSTests {
    @Test func httpsSourcesShareOneHTTP2ConnectionUnderAPrivateCA() async throws {
        let root = try TempDirectory(prefix: "serve-h2")
        defer { root.remove() }
        let photo = try Corpus.bytes("libjpeg-turbo/testorig.jpg")
        let names = (0..<6).map { "p\($0).jpg" }
        for name in names { _ = try root.write(photo, to: name) }
        let nginx = try NginxServer(root: root.path, tls: true)
        let ca = try #require(nginx.certificatePath)
        let server = try await ServeProcess(["--allow-private-addresses", "--ca-certificates", ca, "--quiet"])
        defer { _ = server.stop() }
        let answers = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for name in names {
                group.addTask {
                    let response = try await Client.get(server.baseURL + "/insecure/w:40/plain/" + nginx.url("/" + name))
                    return (response.status, (try? Client.probe(response.body).width) ?? 0)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == names.count && answers.allSatisfy { $0 == (200, 40) }, "\(answers)")
        let log = nginx.accessLog()
        #expect(log.count == names.count, "\(log.count) requests at the origin")
        #expect(Set(log.map(\.serverProtocol)) == ["HTTP/2.0"])
        #expect(Set(log.map(\.connection)).count == 1, "connections: \(Set(log.map(\.connection)))")
    }

    /// Without the CA the source's certificate is not trusted: a 502 that says so, and no request reached the origin.
    @Test func anUntrustedSourceCertificateIsA502NamingIt() async throws {
        let root = try TempDirectory(prefix: "serve-h2")
        defer { root.remove() }
        _ = try root.write(try Corpus.bytes("libjpeg-turbo/testorig.jpg"), to: "a.jpg")
        let nginx = try NginxServer(root: root.path, tls: true)
        let server = try await ServeProcess(["--allow-private-addresses", "--quiet"])
        defer { _ = server.stop() }
        let (status, text) = try Client.curl(server.baseURL + "/insecure/w:40/plain/" + nginx.url("/a.jpg"))
        #expect(status == 502, "\(status) \(text)")
        #expect(text.lowercased().contains("certificate"), "\(text)")
        #expect(nginx.accessLog().isEmpty)
    }
}
