import Foundation

extension ImagePipeline {
    /// Everything an ``ImagePipeline`` is built from. Change the fields you care about:
    ///
    /// ```swift
    /// var configuration = ImagePipeline.Configuration()
    /// configuration.cacheCostLimit = 64 << 20
    /// configuration.originalsFolder = "/var/cache/thumbs/originals"
    /// configuration.transfer.maxConcurrentPerHost = 4
    /// let pipeline = ImagePipeline(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The transfer engine's limits and policies (concurrency, timeouts, retries, body cap).
        /// Its `observers` receive every transfer event of the pipeline.
        public var transfer = TransferConfiguration()
        /// The most bytes of decoded pixels the pipeline's own cache holds (default 256 MiB).
        /// Ignored when ``cache`` is set.
        public var cacheCostLimit = 256 << 20
        /// The most bitmaps the pipeline's own cache holds. Ignored when ``cache`` is set.
        public var cacheCountLimit = 1000
        /// A cache to use instead of a new one, e.g. `ImageCache.shared` to share decoded bitmaps
        /// with other code of the process.
        public var cache: (any ImageCaching)?
        /// A folder where downloaded originals are kept (created when missing). A later request,
        /// or another pipeline on the same folder, decodes from there without downloading. Nil
        /// (the default) keeps nothing on disk.
        public var originalsFolder: String?
        /// The decoder's guards (maximum pixels, decoded bytes, progressive scans, codec memory).
        /// Its `target` is ignored: each request sets its own.
        public var decodeOptions = DecodeOptions()
        /// The scaler used after the codec's own reduction.
        public var resampler = Resampler.default
        /// Hand back sRGB pixels (the default): an image with a colour profile (Adobe RGB, Display P3,
        /// a grey profile, PNG gAMA/cHRM) is converted after scaling. Off, the pixels stay in the
        /// file's own colour space, which the returned `Bitmap` does not record (CMYK JPEGs with a
        /// profile convert through it either way). To skip reading profiles at all, turn off
        /// `decodeOptions.readsColorProfiles`.
        public var convertsToSRGB = true
        /// Threads that read local files, decode and scale (default: the number of cores), so long
        /// C calls never occupy Swift's cooperative threads.
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        /// Which addresses a download (and each of its redirects) may connect to, checked on the address
        /// each connection really goes to, after DNS, so neither a name that resolves to 127.0.0.1 nor a
        /// redirect leads around it. The default lets a URL go anywhere, as a library asked by its own
        /// program should; a service that fetches URLs its clients name must narrow it, or it is an open
        /// proxy into its own network:
        ///
        /// ```swift
        /// configuration.addressPolicy = .publicOnly  // no loopback, link-local (169.254.169.254), private
        /// ```
        public var addressPolicy = AddressPolicy.unrestricted
        /// Receivers of events. All get the transfer events (they are added to the engine's
        /// observers); those that also conform to ``ImagePipelineObserver`` get the pipeline's own.
        public var observers: [any TransferObserver] = []

        /// The defaults: 256 MiB cache, no originals store, 100 MP guard, one worker per core.
        public init() {}

        /// Refuse sources with more pixels than this (width x height, read from the header before
        /// any pixel buffer is allocated). A shortcut for `decodeOptions.maxPixels`.
        public var maxPixels: Int {
            get { decodeOptions.maxPixels }
            set { decodeOptions.maxPixels = newValue }
        }
    }
}
