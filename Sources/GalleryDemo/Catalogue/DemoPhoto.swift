/// One photo of the demo catalogue: its listing metadata and the recipe that derives its image
/// from a source photograph. Everything here is a pure function of the photo's id.
public struct DemoPhoto: Sendable, Hashable {
    /// The public id, as in `/photos/ID` and `/images/ID/SIZE.ext`.
    public let id: Int
    /// Position in the popular feed, 0-based; decides the page and the rating.
    public let ordinal: Int
    public let name: String
    public let description: String
    public let username: String
    public let nsfw: Bool
    /// 500px "pulse" style rating, higher for earlier photos.
    public let rating: Double
    /// Pixel size of the full derived image.
    public let width: Int
    public let height: Int
    public let format: DemoImageFormat
    /// How the image is made; see ``DerivationRecipe``.
    public let recipe: DerivationRecipe
    /// In a synthetic catalogue, the rendering its image is drawn from (see
    /// ``DemoCatalogue/init(syntheticPhotos:sourceCount:)``); nil otherwise.
    public internal(set) var variant: Int? = nil

    /// The pixel size of one of the offered sizes.
    public func dimensions(of size: DemoImageSize) -> (width: Int, height: Int) {
        size.scaledDimensions(width: width, height: height)
    }

    /// Megapixels of the full image.
    public var megapixels: Double { Double(width * height) / 1_000_000 }
}

/// The deterministic recipe for one derived image: which source photograph, which rectangle of it,
/// and how to encode the result.
///
/// The crop is stored as fractions because the catalogue is built without reading the sources:
/// listing 1,000 photos must not decode anything. The rectangle always has the aspect ratio of
/// the output size, so scaling never distorts.
public struct DerivationRecipe: Sendable, Hashable {
    /// Index into the sorted list of source photographs (taken modulo their count).
    public let sourceIndex: Int
    /// Fraction (0.5...1) of the largest rectangle of the output's aspect ratio that fits the source.
    public let cropScale: Double
    /// Where that rectangle sits in the remaining room, 0 = left/top, 1 = right/bottom.
    public let cropOffsetX: Double
    public let cropOffsetY: Double
    /// JPEG quality 1...100 (ignored for PNG).
    public let quality: Int

    /// The crop rectangle in source pixels for a source of the given size and an output aspect ratio.
    public func cropRect(sourceWidth: Int, sourceHeight: Int, aspect: Double)
        -> (x: Int, y: Int, width: Int, height: Int)
    {
        // The largest rectangle of the wanted aspect that fits the source…
        var width = Double(sourceWidth)
        var height = width / aspect
        if height > Double(sourceHeight) {
            height = Double(sourceHeight)
            width = height * aspect
        }
        // …shrunk by the seeded scale and placed at the seeded offset.
        let cropWidth = max(1, min(sourceWidth, Int((width * cropScale).rounded())))
        let cropHeight = max(1, min(sourceHeight, Int((height * cropScale).rounded())))
        let x = Int((Double(sourceWidth - cropWidth) * cropOffsetX).rounded(.down))
        let y = Int((Double(sourceHeight - cropHeight) * cropOffsetY).rounded(.down))
        return (x, y, cropWidth, cropHeight)
    }
}
