// swift-tools-version:6.0
import PackageDescription

// An HTTP thumbnail service on Hummingbird using GalleryKit's ImagePipeline: a separate package
// that depends on the library by path, as a user's program would.
let package = Package(
    name: "thumbnail-service",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "fetch-gallery", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "thumbnail-service",
            dependencies: [
                .product(name: "GalleryKit", package: "fetch-gallery"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
