import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryObjectStore

/// Credentials from the environment and the shared credentials file, and the secret never shown.
@Suite struct S3CredentialsTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    static let file = """
        # written by aws configure
        [default]
        aws_access_key_id = AKIADEFAULT
        aws_secret_access_key = \(secret)

        [ci]
        aws_access_key_id=AKIACI
        aws_secret_access_key =\(secret)-ci
        aws_session_token = FwoGZXIvYXdzEXAMPLETOKEN
        ; a comment
        [broken]
        aws_access_key_id = AKIABROKEN
        """

    @Test func environmentWinsOverTheFile() throws {
        let credentials = try S3Credentials.resolve(environment: [
            "AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": Self.secret, "AWS_SESSION_TOKEN": "TOKEN",
            "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent"])
        #expect(credentials.accessKeyID == "AKIAENV" && credentials.secretAccessKey == Self.secret)
        #expect(credentials.sessionToken == "TOKEN" && credentials.origin == "environment")
        #expect {
            try S3Credentials.resolve(environment: ["AWS_ACCESS_KEY_ID": "AKIAENV"])
        } throws: { "\($0)".contains("AWS_SECRET_ACCESS_KEY is not set") }
    }

    @Test func profilesComeFromTheSharedFile() throws {
        let dir = try TempDirectory()
        let path = try dir.write(Array(Self.file.utf8), to: "credentials")
        let plain = try S3Credentials.resolve(environment: ["AWS_SHARED_CREDENTIALS_FILE": path])
        #expect(plain.accessKeyID == "AKIADEFAULT" && plain.secretAccessKey == Self.secret && plain.sessionToken == nil)
        let ci = try S3Credentials.resolve(environment: ["AWS_SHARED_CREDENTIALS_FILE": path, "AWS_PROFILE": "ci"])
        #expect(ci.accessKeyID == "AKIACI" && ci.secretAccessKey == Self.secret + "-ci")
        #expect(ci.sessionToken == "FwoGZXIvYXdzEXAMPLETOKEN" && ci.origin == "profile ci in \(path)")
        // ~/.aws/credentials under HOME when no file is named.
        try dir.write(Array(Self.file.utf8), to: "home/.aws/credentials")
        #expect(try S3Credentials.resolve(environment: ["HOME": dir.file("home")]).accessKeyID == "AKIADEFAULT")
    }

    @Test func badFilesAndProfilesSayWhatIsWrong() throws {
        let dir = try TempDirectory()
        let path = try dir.write(Array(Self.file.utf8), to: "credentials")
        func failure(_ environment: [String: String]) -> String {
            do { _ = try S3Credentials.resolve(environment: environment); return "no error" } catch { return "\(error)" }
        }
        #expect(failure(["AWS_SHARED_CREDENTIALS_FILE": path, "AWS_PROFILE": "prod"]).contains("\(path): has no profile 'prod'"))
        #expect(failure(["AWS_SHARED_CREDENTIALS_FILE": path, "AWS_PROFILE": "broken"]).contains("profile 'broken' has no aws_secret_access_key"))
        #expect(failure(["AWS_SHARED_CREDENTIALS_FILE": dir.file("missing")]).contains("\(dir.file("missing")): does not exist"))
        #expect(failure(["HOME": dir.file("nohome")]).contains("set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write profile 'default'"))
        // A line that is not name = value is named by number, never shown: it may be the secret.
        let bad = try dir.write(Array("[default]\naws_access_key_id = A\n\(Self.secret)\n".utf8), to: "bad")
        let message = failure(["AWS_SHARED_CREDENTIALS_FILE": bad])
        #expect(message.contains("line 3 of profile 'default'") && !message.contains(Self.secret))
    }

    @Test func descriptionsRedactTheSecretAndTheToken() throws {
        let credentials = S3Credentials(accessKeyID: "AKIAENV", secretAccessKey: Self.secret, sessionToken: "SESSIONTOKEN", origin: "environment")
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in [credentials.description, "\(credentials)", String(reflecting: credentials), "\([credentials])", dumped] {
            #expect(!text.contains(Self.secret) && !text.contains("SESSIONTOKEN"), "\(text)")
            #expect(text.contains("AKIAENV") && text.contains("[redacted]"), "\(text)")
        }
    }
}
