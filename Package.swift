// swift-tools-version:6.1
import PackageDescription

// One folder per stage, C only in the shim targets (CCurl, CUnbound, CCodecs, CColor, ...).
// GalleryImaging (codecs, scaler, cache), GalleryTransfer (libcurl engine) and GalleryObjectStore stand alone;
// GalleryRunner is the floor both products run on; PhotoGallery and GalleryDataset are the products; GalleryKit
// is the library facade (ImagePipeline, and every module above re-exported); fetch-gallery is a thin CLI.
// Debug builds leave Swift unoptimised, which makes the imaging loops (the resampler, the demo
// catalogue's renderer) some 40 times slower than in a release build: on a clean machine the demo
// server took ~4 s a photo to render its images and the quick-start test ran past its limit.
// Scripts/test and Scripts/check-sanitizers (through Scripts/test-targets.sh) set
// FETCH_GALLERY_OPTIMIZE_IMAGING=1 to compile those two modules with -O in their debug builds too.
// Read from the environment, never set by default: a package with unsafe flags cannot be depended
// on by URL, and GalleryKit is meant to be.
let optimizedImaging: [SwiftSetting] = Context.environment["FETCH_GALLERY_OPTIMIZE_IMAGING"] == "1"
    ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

let package = Package(
    name: "fetch-gallery",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "GalleryKit", targets: ["GalleryKit"]),
        .library(name: "GalleryRunner", targets: ["GalleryRunner"]),
        .library(name: "GalleryDataset", targets: ["GalleryDataset"]),
        .library(name: "PhotoGallery", targets: ["PhotoGallery"]),
        .library(name: "GalleryImaging", targets: ["GalleryImaging"]),
        .library(name: "GalleryTransfer", targets: ["GalleryTransfer"]),
        .library(name: "DatasetFormats", targets: ["DatasetFormats"]),
        .library(name: "GalleryObjectStore", targets: ["GalleryObjectStore"]),
        .library(name: "GalleryServe", targets: ["GalleryServe"]),
        .library(name: "GalleryHTTPServer", targets: ["GalleryHTTPServer"]),
        .executable(name: "fetch-gallery", targets: ["fetch-gallery"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target GalleryKit` (DocC); a plugin, not linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libcurl, with typed wrappers for the variadic curl_easy_setopt / curl_multi_setopt.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Our own C: every libjpeg / libpng call that may longjmp runs inside a C function
        // that owns the setjmp, so no longjmp ever crosses a Swift frame. libwebp and giflib
        // report errors by return codes.
        .target(
            name: "CCodecs",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("webp"),
                             .linkedLibrary("webpdemux"), .linkedLibrary("gif"),
                             .linkedLibrary("deflate")]
        ),
        // libheif: HEIC and AVIF in (libde265 / dav1d decoders), AVIF out (aom). Its own shim so that only
        // the imaging module links it; errors come back as CCodecs' fg_status.
        .target(name: "CHeif", dependencies: ["CCodecs"], linkerSettings: [.linkedLibrary("heif")]),
        // LittleCMS 2: transforms from a photo's colour profile to sRGB (returns errors, never longjmps).
        .target(name: "CColor", linkerSettings: [.linkedLibrary("lcms2")]),
        // The resampler's loops, in 128-, 256- or 512-bit registers as the processor allows (asked
        // when the process runs), the same pixels from each.
        .target(name: "CScaling"),
        // The project's lock and continuation hand-off, both visible to ThreadSanitizer (see its files);
        // every module that locks or hands values between threads uses them instead of Synchronization's.
        // Every file system call of the project, checked (EINTR retried, errors naming the call and the path),
        // the one atomic publish and the one line reader; below every library (Scripts/check-system-layer).
        .target(name: "GallerySystem"),
        .target(name: "GallerySync", dependencies: ["GallerySystem"]),
        .target(name: "GalleryImaging", dependencies: ["CCodecs", "CHeif", "CColor", "CScaling", "GallerySync", "GallerySystem"],
                swiftSettings: optimizedImaging),
        // libunbound: full recursion from the root for `--dns recursive`.
        .systemLibrary(name: "CUnbound", providers: [.apt(["libunbound-dev"])]),
        .target(name: "GalleryTransfer", dependencies: ["CCurl", "CUnbound", "GallerySync", "GallerySystem"]),
        // OpenSSL's libcrypto, for the originals' SHA-256 in the manifest.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // MD5 of many streams at once, sixteen in the lanes of AVX-512 registers where the processor has them
        // (asked when the process runs): the tars a dataset run writes, for the wids index.
        .target(name: "CDigest"),
        // zlib's gzFile stream, for `dataset --input-format csv.gz` and the other .gz URL lists.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The byte-level object store: one protocol (put a file or a stream, get, list, delete, abort unfinished
        // uploads), a folder and S3 (its client moves with it); under the gallery store and the dataset sink.
        .target(name: "GalleryObjectStore", dependencies: ["GalleryTransfer", "CCrypto", "GallerySync", "GallerySystem"]),
        // The floor both products run on: the batch runner, the outcome and error vocabulary, digests, and the
        // store locations (options, kinds) opened as objects. It imports no product.
        .target(name: "GalleryRunner", dependencies: ["GalleryImaging", "GalleryTransfer", "GalleryObjectStore", "CCrypto",
                                                      "CDigest", "GallerySync", "GallerySystem"]),
        // The products, each a module of its own over the runner: a product never imports another.
        // `fetch-gallery dataset`: URL lists in, img2dataset's shards out (and reshaped, indexed, verified).
        .target(name: "GalleryDataset", dependencies: ["GalleryRunner", "GalleryImaging", "GalleryTransfer", "GalleryObjectStore",
                                                       "DatasetFormats", "GallerySync", "GallerySystem", "CZlib"]),
        // `fetch-gallery run`, `plan`, `merge`: the gallery (sources, plan, journal, renditions, pages, shards, its store).
        .target(name: "PhotoGallery", dependencies: ["GalleryRunner", "GalleryImaging", "GalleryTransfer", "GalleryObjectStore",
                                                     "GallerySync", "GallerySystem"]),
        // The library facade on top: ImagePipeline (load, cache and scale one image), and `import GalleryKit`
        // re-exports the products, the runner and the parts, so one import offers the whole API.
        .target(name: "GalleryKit", dependencies: ["PhotoGallery", "GalleryDataset", "GalleryRunner", "GalleryImaging",
                                                   "GalleryTransfer", "GalleryObjectStore", "DatasetFormats", "GallerySync",
                                                   "GallerySystem"]),
        // Debian's libsnappy and libzstd, for Parquet pages.
        .systemLibrary(name: "CSnappy", pkgConfig: "snappy", providers: [.apt(["libsnappy-dev"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // The training-dataset writers (webdataset tar, Parquet, TFRecord, img2dataset's shard layout).
        .target(name: "DatasetFormats", dependencies: ["CSnappy", "CZstd", "CZlib", "GallerySystem"]),
        .executableTarget(
            name: "fetch-gallery",
            dependencies: [
                "GalleryKit",
                "GalleryDemo",
                "GalleryServe",
                "GallerySync",
                "GallerySystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The HTTP/1.1 server under the demo catalogue and `serve`: a thread per connection, keep-alive, sendfile,
        // graceful stop. Our own and small, so a first build compiles no SwiftNIO (it was half of the build).
        .target(name: "GalleryHTTPServer", dependencies: ["GallerySync", "GallerySystem"]),
        // The built-in 500px-style demo catalogue server (`serve-demo`, and the default job source).
        .target(
            name: "GalleryDemo",
            dependencies: [
                "GalleryImaging",
                "GalleryHTTPServer",
                "GallerySync",
                "GallerySystem",
            ],
            resources: [.copy("Resources/demo-photos")],
            swiftSettings: optimizedImaging
        ),
        // `fetch-gallery serve`: an HTTP thumbnail service speaking imgproxy's URLs, on ImagePipeline.
        .target(
            name: "GalleryServe",
            dependencies: [
                "GalleryKit",
                "GallerySync",
                "GallerySystem",
                "CCrypto",
                "GalleryHTTPServer",
            ]
        ),
        // Scripts/bench-cache: the pipeline's cold, warm and coalesced requests on real photos.
        .executableTarget(name: "bench-cache", dependencies: ["GalleryKit", "GalleryTestSupport"]),
        // Scripts/bench-fingerprint: pHash + ThumbHash against the thumbnail work, and the duplicate index at 1M photos.
        .executableTarget(name: "bench-fingerprint", dependencies: ["GalleryKit", "GallerySync"]),
        // Scripts/bench-web-cache: the resolver cache's memory from 10,000 to 1,000,000 names.
        .executableTarget(name: "bench-resolver", dependencies: ["GalleryTransfer", "GallerySystem"]),
        // Test-only helpers: the fault server, the nginx harness, corpus paths.
        .target(name: "GalleryTestSupport", dependencies: ["GalleryImaging", "GalleryObjectStore", "GallerySync"]),
        // Swift Testing traits over GalleryTestSupport's harnesses (kept apart: bench-cache links GalleryTestSupport).
        .target(name: "GalleryTestTraits", dependencies: ["GalleryTestSupport"]),
        // Test targets read their Fixtures (fuzz regression inputs) through #filePath, not as resources.
        .testTarget(name: "GalleryImagingTests", dependencies: ["GalleryImaging", "CScaling", "GalleryTestSupport", "GallerySync", "GallerySystem"], exclude: ["Fixtures"]),
        .testTarget(name: "GalleryTransferTests", dependencies: ["GalleryTransfer", "GalleryTestSupport", "GallerySync"], exclude: ["Fixtures"]),
        .testTarget(name: "GalleryKitTests", dependencies: ["GalleryKit", "PhotoGallery", "GalleryDataset", "GalleryRunner", "GalleryTestSupport", "GalleryTestTraits", "GallerySync", "GallerySystem"], exclude: ["Fixtures"]),
        .testTarget(name: "GalleryDemoTests", dependencies: ["GalleryDemo", "GalleryHTTPServer", "GalleryTestSupport", "GallerySync",
                                                          "GallerySystem"]),
        .testTarget(name: "CLITests", dependencies: ["GalleryTestSupport", "GalleryTestTraits", "GallerySync"]),
        // The gallery viewer in Debian's Chromium (headless, through chromedriver), on a gallery the built command made.
        .testTarget(name: "BrowserTests", dependencies: ["GalleryTestSupport"]),
        // The service's URL parser and signer, and the service over a real socket (libcurl as the client).
        .testTarget(name: "GalleryServeTests", dependencies: ["GalleryServe", "GalleryTestSupport", "GallerySync"]),
        .testTarget(name: "GallerySyncTests", dependencies: ["GallerySync"]),
        // The object store's client and its conformance suite, run against a folder and a real S3-compatible store.
        .testTarget(name: "GalleryObjectStoreTests", dependencies: ["GalleryObjectStore", "GalleryTestSupport", "GalleryTestTraits",
                                                                   "GallerySync", "GalleryTransfer"]),
        .testTarget(name: "GallerySystemTests", dependencies: ["GallerySystem"]),
        // The dataset writers' output read back by webdataset, pyarrow, fastparquet, duckdb, datasets, tfrecord.
        .testTarget(name: "DatasetFormatsTests", dependencies: ["DatasetFormats"], exclude: ["Readers", "Fixtures"]),
        // Scripts/test-one, as CI runs it, on a deliberately crashing and a hanging test process.
        .testTarget(name: "TestRunnerTests", dependencies: ["GalleryTestSupport"]),
        // The library as a user sees it: imported without @testable, public symbols only.
        .testTarget(name: "GalleryPublicAPITests", dependencies: ["GalleryKit", "GalleryTestSupport", "GallerySync"]),
    ]
)
