extension ImagePipeline {
    /// What a pipeline has done so far. Each request counts once in exactly one of
    /// ``cacheHits``, ``coalesced`` or ``started``; the other counters say what the started work did.
    public struct Statistics: Sendable, Hashable {
        /// Requests answered from the decoded-image cache (no download, no decode).
        public var cacheHits = 0
        /// Requests that joined work already in flight for the same source and size.
        public var coalesced = 0
        /// Requests that started work of their own.
        public var started = 0
        /// HTTP downloads performed (a request that joined an in-flight download does not count).
        public var downloads = 0
        /// Body bytes of those downloads.
        public var bytesDownloaded: Int64 = 0
        /// Originals read from the on-disk store instead of being downloaded.
        public var storeReads = 0
        /// Originals written to the on-disk store.
        public var storeWrites = 0
        /// Decodes performed (a request that joined an in-flight decode does not count).
        public var decodes = 0
        /// Requests that ended in an error, cancellations included.
        public var failures = 0

        /// All zero.
        public init() {}
    }
}
