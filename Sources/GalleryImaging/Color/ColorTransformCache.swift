import GallerySync

/// The transforms of the profiles seen so far, one per profile and pixel layout. A gallery's photos
/// mostly share a handful of profiles, and building a transform (parsing the profile, LittleCMS's
/// optimisation, the identity check) costs far more than applying it to a thumbnail. Failures are
/// kept too, so a broken profile is parsed once.
final class ColorTransformCache: Sendable {
    /// The process-wide cache every decoder uses.
    static let shared = ColorTransformCache(limit: 64)

    private struct Key: Hashable, Sendable {
        let profile: ColorProfile
        let layout: ColorLayout
    }

    private let entries = Locked([Key: Result<ColorTransform, ColorProblem>]())
    /// Past this many entries the cache starts again: a stream of photos with unique profiles
    /// (hostile or not) cannot grow it without bound.
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The shared transform for `profile` and `layout`, built on first use.
    func transform(for profile: ColorProfile, layout: ColorLayout) -> Result<ColorTransform, ColorProblem> {
        let key = Key(profile: profile, layout: layout)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        // Built outside the lock: two threads may both build the first one; the first stored wins.
        let made = ColorTransform.make(profile, layout: layout)
        return entries.withLock { entries in
            if let stored = entries[key] { return stored }
            if entries.count >= limit { entries.removeAll() }
            entries[key] = made
            return made
        }
    }

    /// Entries held now (for tests).
    var count: Int { entries.withLock { $0.count } }
}

extension ColorProfile {
    /// What a decoder attaches to pixels in `layout` carrying this profile: the transform to sRGB,
    /// or nil when they are sRGB already (an sRGB chunk, a profile equivalent to sRGB) or the profile
    /// cannot be used, which comes with a note saying why.
    func transformToSRGB(for layout: ColorLayout,
                         cache: ColorTransformCache = .shared) -> (transform: ColorTransform?, note: DecodeNote?) {
        if isSRGB { return (nil, nil) }
        switch cache.transform(for: self, layout: layout) {
        case .success(let transform):
            return (transform.isIdentity ? nil : transform, nil)
        case .failure(let problem):
            return (nil, .colorProfileIgnored(reason: "\(self): \(problem.reason)"))
        }
    }
}
