extension DecodedImage {
    /// Whether ``bitmap`` holds sRGB pixels already: the file declared no profile (read as sRGB), an
    /// sRGB one or one equivalent to it, a profile that could not be used (see ``notes``), or a CMYK
    /// profile, which converts while decoding. False means ``convertedToSRGB(_:)`` changes pixels.
    public var isSRGB: Bool { transform == nil }

    /// `bitmap`, made from this image's pixels (the decoded bitmap, or a scaled or oriented copy: the
    /// conversion works pixel by pixel), converted from the image's profile to sRGB. Grey stays grey
    /// (on sRGB's tone curve), alpha is kept. Returned unchanged when ``isSRGB``.
    ///
    /// Convert after scaling: a 256-pixel thumbnail costs a few hundred microseconds, the full image
    /// a hundred times that.
    public func convertedToSRGB(_ bitmap: Bitmap) -> Bitmap {
        guard let transform, ColorLayout(bitmap.format) == transform.layout else { return bitmap }
        return transform.apply(bitmap)
    }
}
