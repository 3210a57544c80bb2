import Foundation
import GalleryTransfer
import Testing
@testable import GalleryObjectStore

/// `s3://` locations, endpoints and the URLs they make, without a store.
@Suite struct S3LocationTests {
    @Test func parsesBucketAndPrefix() throws {
        #expect(try S3Location(parsing: "s3://photos") == S3Location(bucket: "photos", prefix: ""))
        #expect(try S3Location(parsing: "s3://photos/").prefix == "")
        let deep = try S3Location(parsing: "s3://my.photos-2026/gallery/run 1")
        #expect(deep.bucket == "my.photos-2026")
        #expect(deep.prefix == "gallery/run 1/")
        #expect(deep.key("index.html") == "gallery/run 1/index.html")
        #expect(deep.key("/photos/a.jpg") == "gallery/run 1/photos/a.jpg")
        #expect(deep.description == "s3://my.photos-2026/gallery/run 1/")
    }

    @Test(arguments: [
        ("photos/gallery", "does not start with s3://"),
        ("s3://", "bucket name is missing"),
        ("s3:///prefix", "bucket name is missing"),
        ("s3://ab/x", "3 to 63 characters"),
        ("s3://Photos/x", "lower-case letters"),
        ("s3://photos_1", "lower-case letters"),
        ("s3://-photos", "start and end with a letter or digit"),
        ("s3://pho..tos", "no '..'"),
        ("s3://192.168.1.10/x", "IP address"),
        ("s3://photos/a//b", "empty path segment"),
    ])
    func refusesBadLocations(text: String, reason: String) {
        #expect {
            _ = try S3Location(parsing: text)
        } throws: { error in
            let message = "\(error)"
            return message.contains(reason) && message.contains("'\(text)'")
        }
    }

    @Test func endpointsAddressBucketsPathStyleOrVirtualHosted() throws {
        let path = try S3Endpoint(url: "http://127.0.0.1:7480/", environment: [:])
        #expect(path.addressing == .pathStyle && path.region == "us-east-1")
        #expect(path.url(bucket: "photos", key: "a b/ü+x.jpg") == "http://127.0.0.1:7480/photos/a%20b/%C3%BC%2Bx.jpg")
        #expect(path.url(bucket: "photos") == "http://127.0.0.1:7480/photos")
        let virtual = try S3Endpoint(url: "https://store.example.org", addressing: .virtualHosted, environment: [:])
        #expect(virtual.url(bucket: "photos", key: "k") == "https://photos.store.example.org/k")
        #expect(virtual.url(bucket: "photos", query: [("list-type", "2")]) == "https://photos.store.example.org/?list-type=2")
        // A dotted bucket under virtual-hosted addressing would not match the store's certificate.
        #expect(virtual.url(bucket: "my.photos", key: "k") == "https://store.example.org/my.photos/k")
        let aws = try S3Endpoint(environment: ["AWS_DEFAULT_REGION": "eu-west-3"])
        #expect(aws.url(bucket: "photos", key: "k") == "https://photos.s3.eu-west-3.amazonaws.com/k")
    }

    @Test func regionComesFromTheArgumentThenAWSRegionThenAWSDefaultRegion() throws {
        let env = ["AWS_REGION": "eu-central-1", "AWS_DEFAULT_REGION": "ap-south-1"]
        #expect(try S3Endpoint(region: "us-west-2", environment: env).region == "us-west-2")
        #expect(try S3Endpoint(environment: env).region == "eu-central-1")
        #expect(try S3Endpoint(environment: ["AWS_DEFAULT_REGION": "ap-south-1"]).region == "ap-south-1")
        #expect(try S3Endpoint(environment: [:]).region == "us-east-1")
        #expect(throws: S3Error.self) { try S3Endpoint(region: "us east", environment: [:]) }
    }

    @Test(arguments: [
        ("127.0.0.1:7480", "no scheme"),
        ("ftp://store", "not http or https"),
        ("http://", "names no host"),
        ("http://key:secret@store", "holds credentials"),
        ("http://store/bucket", "has a path"),
    ])
    func refusesBadEndpoints(url: String, reason: String) {
        #expect {
            _ = try S3Endpoint(url: url, environment: [:])
        } throws: { error in
            "\(error)".contains(reason) && !"\(error)".contains("secret")
        }
    }

    /// libcurl signs the query as the URL spells it: the client must send it sorted and encoded.
    @Test func queriesAreSentCanonical() {
        let query = AWSSignature.canonicalQuery([("prefix", "a b/ü~*"), ("list-type", "2"), ("uploads", ""),
                                                 ("continuation-token", "1/x+y=="), ("max-keys", "2")])
        #expect(query == "continuation-token=1%2Fx%2By%3D%3D&list-type=2&max-keys=2&prefix=a%20b%2F%C3%BC~%2A&uploads=")
        #expect(AWSSignature.encode("photos/a b.jpg", keepSlash: true) == "photos/a%20b.jpg")
        #expect(AWSSignature.encode("-._~AZaz09") == "-._~AZaz09")
    }
}
