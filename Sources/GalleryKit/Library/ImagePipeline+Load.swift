import Foundation

extension ImagePipeline {
    /// Encoded bytes of an original and the validator that identifies their version.
    struct Original: Sendable {
        var bytes: [UInt8]
        var validator: ImageCacheKey.Validator?
    }

    /// The shared work of one request: get the original, decode and scale it, cache the result.
    /// Runs in the in-flight table's task, so cancelling it (every waiter gone) stops it.
    func load(_ request: ImageRequest) async -> Result<Bitmap, ImagePipelineError> {
        do throws(ImagePipelineError) {
            let original: Original
            switch request.source {
            case .url(let url): original = try await fetchOriginal(url)
            case .file(let path): original = try await readFile(path)
            }
            return .success(try await adopt(original, for: request).bitmap)
        } catch {
            return .failure(error)
        }
    }

    /// Decodes and scales an original's bytes for `request`, then remembers them as the source's
    /// current version: the bitmap in the decoded cache, the description, the URL's validator.
    func adopt(_ original: Original, for request: ImageRequest) async throws(ImagePipelineError)
        -> (bitmap: Bitmap, info: ImageSourceInfo) {
        if router.hasHandlers(for: request.source) {
            let size = Int64(original.bytes.count)
            router.report(ImageProgress(phase: .decoding, receivedBytes: size, expectedBytes: size), for: request.source)
        }
        let (bitmap, uprightWidth, uprightHeight) = try await render(original.bytes, for: request)
        let info = ImageSourceInfo(format: ImageFormat.sniff(original.bytes), byteCount: original.bytes.count,
                                   width: uprightWidth, height: uprightHeight, validator: original.validator,
                                   loaded: Date())
        sources.setValue(info, forKey: request.source.cacheSource, cost: 1)
        cache[cacheKey(request, validator: original.validator)] = bitmap
        if case .url(let url) = request.source {
            validators.setValue(KnownValidator(validator: original.validator), forKey: url, cost: 1)
        }
        return (bitmap, info)
    }

    /// The original of `url`: from the store when it holds it, else downloaded (and then stored).
    /// Every size of one URL shares this work, so a URL is downloaded once however many sizes
    /// are asked for at the same time.
    func fetchOriginal(_ url: String) async throws(ImagePipelineError) -> Original {
        let outcome = await originals.value(
            for: url, cancelled: { .cancelled(.url(url), stage: .transfer) }, joined: { _ in },
            work: { [self] in
                do throws(ImagePipelineError) { return .success(try await readOrDownload(url)) } catch {
                    return .failure(error)
                }
            })
        return try outcome.get()
    }

    private func readOrDownload(_ url: String) async throws(ImagePipelineError) -> Original {
        if let store {
            let stored = try await onWorker(.url(url), stage: .store) { () throws(ImagePipelineError) in try store.read(url) }
            if let stored {
                counters.withLock { $0.storeReads += 1 }
                emit(.readFromStore(url: url, path: store.path(for: url)))
                return Original(bytes: stored.bytes, validator: stored.validator)
            }
        }
        let original = try await download(url)
        if let store {
            let durable = configuration.transfer.durable
            try await onWorker(.url(url), stage: .store) { () throws(ImagePipelineError) in
                try store.write(original.bytes, validator: original.validator, for: url, durable: durable)
            }
            counters.withLock { $0.storeWrites += 1 }
        }
        return original
    }

    /// One download through the engine (retries, limits and the body cap apply); the body must
    /// start with an image signature, so an HTML error page fails here, not in the decoder.
    private func download(_ url: String) async throws(ImagePipelineError) -> Original {
        counters.withLock { $0.downloads += 1 }
        let router = self.router
        let source = ImageRequest.Source.url(url)
        var request = engine.request(url).addressPolicy(configuration.addressPolicy).validate().expectingImage()
        if router.hasHandlers(for: source) {
            request = request.onProgress { received, expected in
                router.report(ImageProgress(phase: .downloading, receivedBytes: received, expectedBytes: expected),
                              for: source)
            }
        }
        let response: DataResponse
        do { response = try await request.response() } catch {
            throw ImagePipelineError(source: source, stage: .transfer, reason: .transfer(error))
        }
        counters.withLock { $0.bytesDownloaded += Int64(response.body.count) }
        emit(.downloaded(url: url, bytes: response.body.count))
        let validator: ImageCacheKey.Validator? = response.headers["ETag"].map { .etag($0) }
            ?? response.headers["Last-Modified"].map { .lastModified($0) }
        return Original(bytes: response.body, validator: validator)
    }

    /// A local file's bytes, read on a worker thread, with the validator taken before the read
    /// (a file changed during the read then misses the next lookup instead of hitting stale pixels).
    private func readFile(_ path: String) async throws(ImagePipelineError) -> Original {
        try await onWorker(.file(path), stage: .decode) { () throws(ImagePipelineError) in
            let validator = FileValidator.of(path)
            do throws(DecodeError) { return Original(bytes: try ImageDecoder.readFile(atPath: path), validator: validator) } catch {
                throw ImagePipelineError(source: .file(path), stage: .decode, reason: .decode(error))
            }
        }
    }

    /// Runs `work` on the worker pool; a task cancelled before a thread takes it skips it.
    func onWorker<T: Sendable>(_ source: ImageRequest.Source, stage: ImagePipelineError.Stage,
                               _ work: @escaping @Sendable () throws(ImagePipelineError) -> T) async throws(ImagePipelineError) -> T {
        if Task.isCancelled { throw .cancelled(source, stage: stage) }
        let result: Result<T, ImagePipelineError>
        do {
            result = try await pool.run { Result { () throws(ImagePipelineError) in try work() } }
        } catch {
            throw .cancelled(source, stage: stage)
        }
        return try result.get()
    }
}

extension ImagePipeline {
    /// Decodes `bytes` reduced as far as `request.size` allows, then scales to the exact size and
    /// makes the bitmap upright. Two jobs on the worker pool with a cancellation check between
    /// them, so a request abandoned during the decode does not also pay for the scale.
    /// Hands back the bitmap and the source's upright width and height.
    func render(_ bytes: [UInt8], for request: ImageRequest) async throws(ImagePipelineError)
        -> (bitmap: Bitmap, uprightWidth: Int, uprightHeight: Int) {
        let source = request.source
        let name = source.description
        let plan = DecodePlan(size: request.size, options: configuration.decodeOptions)
        let started = ContinuousClock.now
        // A job still queued when the task is cancelled is skipped by the pool; one already
        // running finishes (libjpeg and libpng have no cheap abort), and its result is dropped.
        let decoded = try await onWorker(source, stage: .decode) { [self] () throws(ImagePipelineError) in
            counters.withLock { $0.decodes += 1 }
            do throws(DecodeError) { return try plan.decode(bytes, name: name) } catch {
                throw ImagePipelineError(source: source, stage: .decode, reason: .decode(error))
            }
        }
        if Task.isCancelled { throw .cancelled(source, stage: .decode) }
        let (resampler, toSRGB) = (configuration.resampler, configuration.convertsToSRGB)
        let bitmap = try await onWorker(source, stage: .decode) { () throws(ImagePipelineError) in
            plan.finish(decoded, resampler: resampler, convertingToSRGB: toSRGB)
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        emit(.decoded(request, width: bitmap.width, height: bitmap.height, seconds: seconds))
        let swap = decoded.orientation.swapsDimensions
        return (bitmap, swap ? decoded.sourceHeight : decoded.sourceWidth, swap ? decoded.sourceWidth : decoded.sourceHeight)
    }
}
