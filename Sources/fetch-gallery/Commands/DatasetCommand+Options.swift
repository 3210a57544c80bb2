import ArgumentParser
import Foundation
import GalleryKit

extension DatasetCommand {
    /// The flags as the library's options; a bad value is a usage error naming the flag.
    func makeOptions() throws -> DatasetOptions {
        var o = DatasetOptions(urlList: urlList)
        do { o.inputFormat = try DatasetInputFormat(parsing: inputFormat) } catch { throw ValidationError(error.description) }
        o.columns = DatasetColumns(urlColumn: urlCol, captionColumn: captionCol,
                                   additional: saveAdditionalColumns.map(DatasetArguments.list) ?? [])
        o.columns.bboxColumn = bboxCol.flatMap { $0.isEmpty || $0.lowercased() == "none" ? nil : $0 }
        if let verifyHash {
            let parts = DatasetArguments.list(verifyHash)
            guard parts.count == 2 else { throw ValidationError("--verify-hash takes COL,ALGO (e.g. sha256_col,sha256)") }
            o.columns.verifyHash = (parts[0], parts[1])
        }
        try verification.apply(to: &o)
        o.outputFolder = outputFolder
        o.caCertificates = certificates.caCertificates
        guard let format = DatasetOutputFormat(rawValue: outputFormat) else {
            throw ValidationError("--output-format \(outputFormat) is not one of files, webdataset, parquet, tfrecord")
        }
        o.outputFormat = format
        let sides = imageSize.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...2).contains(sides.count), let width = sides[0], sides.allSatisfy({ $0 != nil }) else {
            throw ValidationError("--image-size \(imageSize) is not a size (N, or WIDTHxHEIGHT with --resize-mode fixed)")
        }
        o.image.imageSize = width
        o.image.imageHeight = sides.count == 2 ? sides[1] : nil
        guard let mode = DatasetResizeMode(rawValue: resizeMode) else {
            throw ValidationError("Invalid option for resize_mode: \(resizeMode) (no, border, keep_ratio, keep_ratio_largest, center_crop, fixed)")
        }
        o.image.resizeMode = mode
        o.image.resizeOnlyIfBigger = resizeOnlyIfBigger
        o.image.minImageSize = minImageSize
        o.image.maxImageArea = try Self.number(maxImageArea, flag: "--max-image-area")
        o.image.maxAspectRatio = try Self.number(maxAspectRatio, flag: "--max-aspect-ratio")
        guard let encode = DatasetImageOptions.EncodeFormat(rawValue: encodeFormat) else {
            throw ValidationError("Invalid encode format \(encodeFormat) (jpg, png, webp, avif)")
        }
        o.image.encodeFormat = encode
        o.image.encodeQuality = encodeQuality
        o.image.skipReencode = skipReencode
        o.numberSamplePerShard = numberSamplePerShard
        o.shardNameDigits = oomShardCount
        switch computeHash.lowercased() {
        case "none", "": o.computeHash = nil
        default:
            guard let hash = DatasetHash(rawValue: computeHash.lowercased()) else {
                throw ValidationError("Unsupported hash to compute: \(computeHash)")
            }
            o.computeHash = hash
        }
        o.extractExif = extractExif
        guard let mode = DatasetOptions.IncrementalMode(rawValue: incrementalMode) else {
            throw ValidationError("Unknown incremental mode \(incrementalMode)")
        }
        o.incrementalMode = mode
        o.retryFailed = retryFailed
        o.userAgentToken = userAgentToken
        var ignored = Set<OptOutSignalKind>()
        for name in DatasetArguments.list(ignoreOptOut ?? "") {
            if name.lowercased() == "all" { ignored = Set(OptOutSignalKind.allCases); continue }
            guard let kind = OptOutSignalKind(rawValue: name.lowercased()) else {
                throw ValidationError("--ignore-opt-out \(name) is not one of "
                    + (OptOutSignalKind.allCases.map(\.rawValue) + ["all"]).joined(separator: ", "))
            }
            ignored.insert(kind)
        }
        let tokens = [userAgentToken, "fetch-gallery"].compactMap { $0?.lowercased() }.filter { !$0.isEmpty }
        o.optOut = ignored.count == OptOutSignalKind.allCases.count ? nil
            : OptOutPolicy(tokens: tokens, directives: Set(DatasetArguments.list(disallowedHeaderDirectives)), ignored: ignored)
        o.timeout = timeout
        o.retries = retries
        o.maxImageBytes = maxImageBytes
        o.minBytesPerSecond = minSpeed
        o.deadline = downloadDeadline
        o.jobs = jobs
        o.perHost = perHost
        o.workers = workers
        if let spec = try shard.resolve(environment: ProcessInfo.processInfo.environment) {
            o.shard = (spec.index, spec.count)
        }
        o.subset = try subset.subset()
        do { try o.validate() } catch { throw ValidationError(error.description) }
        return o
    }

    static func number(_ text: String, flag: String) throws -> Double {
        if ["inf", "infinity", "float('inf')"].contains(text.lowercased()) { return .infinity }
        guard let value = Double(text), value > 0 else { throw ValidationError("\(flag) must be a positive number or inf") }
        return value
    }
}
