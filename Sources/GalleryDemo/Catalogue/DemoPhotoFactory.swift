/// Builds one ``DemoPhoto`` from its ordinal and id. Each property draws from its own seeded
/// stream (``SeededGenerator/Purpose``), so changing one rule never reshuffles the others.
struct DemoPhotoFactory {
    let sourceCount: Int

    /// Aspect ratios (width / height) with weights roughly like a photo site's: mostly 3:2 landscape.
    private static let aspects: [(ratio: Double, weight: Int)] = [
        (3.0 / 2, 30), (2.0 / 3, 14), (4.0 / 3, 12), (3.0 / 4, 6), (16.0 / 9, 10), (1, 8), (5.0 / 4, 4),
        (9.0 / 16, 3), (21.0 / 9, 2),
    ]
    private static let megapixelRange = 1.0...12.0
    /// PNG photos are kept small: a 12 MP PNG is ~25 MB, unlike anything a photo site serves.
    private static let pngMegapixelLimit = 4.0

    func make(ordinal: Int, id: Int) -> DemoPhoto {
        let format = Self.format(id)
        let (width, height) = Self.size(id, format: format)
        var crop = SeededGenerator(id, .crop)
        var source = SeededGenerator(id, .source)
        let recipe = DerivationRecipe(
            sourceIndex: Int(source.next() % UInt64(sourceCount)),
            cropScale: 0.5 + 0.5 * crop.unit(),
            cropOffsetX: crop.unit(),
            cropOffsetY: crop.unit(),
            quality: 78 + Int(crop.next() % 18)
        )
        let (name, description) = Self.text(id)
        var rating = SeededGenerator(id, .rating)
        var nsfw = SeededGenerator(id, .nsfw)
        return DemoPhoto(
            id: id, ordinal: ordinal, name: name, description: description,
            username: Self.username(id), nsfw: nsfw.next() % 40 == 0,
            rating: Self.rating(ordinal: ordinal, jitter: rating.unit()),
            width: width, height: height, format: format, recipe: recipe
        )
    }

    /// A photo of a synthetic catalogue: its own metadata, the size, format and recipe of variant
    /// `variant % variants` (chosen by its id).
    func makeSynthetic(ordinal: Int, id: Int, variants: Int) -> DemoPhoto {
        let own = make(ordinal: ordinal, id: id)
        var pick = SeededGenerator(id, .source, salt: 0x5CA1E)
        let variant = Int(pick.next() % UInt64(variants))
        let look = makeVariant(variant)
        return DemoPhoto(id: id, ordinal: ordinal, name: own.name, description: own.description, username: own.username,
                         nsfw: own.nsfw, rating: own.rating, width: look.width, height: look.height, format: look.format,
                         recipe: look.recipe, variant: variant)
    }

    /// Variant `index` of a synthetic catalogue: a JPEG of 0.25 to 0.45 MP (about 50 kB) cropped from one
    /// of the sources, under an id of its own (``DemoCatalogue/variantBaseID`` + index) in the image cache.
    func makeVariant(_ index: Int) -> DemoPhoto {
        let id = DemoCatalogue.variantBaseID + index
        var size = SeededGenerator(id, .size)
        let aspect = Self.aspects[Int(size.next() % UInt64(Self.aspects.count))].ratio
        let pixels = (0.25 + 0.2 * size.unit()) * 1_000_000
        let width = Int((pixels * aspect).squareRoot().rounded())
        let height = Int((Double(width) / aspect).rounded())
        var crop = SeededGenerator(id, .crop)
        var source = SeededGenerator(id, .source)
        let recipe = DerivationRecipe(sourceIndex: Int(source.next() % UInt64(sourceCount)), cropScale: 0.5 + 0.5 * crop.unit(),
                                      cropOffsetX: crop.unit(), cropOffsetY: crop.unit(), quality: 80 + Int(crop.next() % 10))
        var format = SeededGenerator(id, .format)
        return DemoPhoto(id: id, ordinal: index, name: "variant \(index)", description: "", username: "", nsfw: false,
                         rating: 0, width: width, height: height,
                         format: format.unit() < 0.3 ? .progressiveJPEG : .baselineJPEG, recipe: recipe)
    }

    private static func format(_ id: Int) -> DemoImageFormat {
        var generator = SeededGenerator(id, .format)
        let roll = generator.unit()
        if roll < 0.12 { return .png }
        if roll < 0.40 { return .progressiveJPEG }
        return .baselineJPEG
    }

    /// Output size: a weighted aspect ratio and a megapixel count skewed towards typical uploads
    /// (the median is about 5 MP), clamped into 1...12 MP (1...4 MP for PNG).
    private static func size(_ id: Int, format: DemoImageFormat) -> (Int, Int) {
        var generator = SeededGenerator(id, .size)
        let totalWeight = aspects.reduce(0) { $0 + $1.weight }
        var pick = Int(generator.next() % UInt64(totalWeight))
        var aspect = aspects[0].ratio
        for candidate in aspects {
            if pick < candidate.weight { aspect = candidate.ratio; break }
            pick -= candidate.weight
        }
        let upper = format == .png ? pngMegapixelLimit : megapixelRange.upperBound
        let lower = megapixelRange.lowerBound
        // Stay a little inside the bounds so rounding the sides never leaves the range.
        let megapixels = (lower + 0.02) + (upper - lower - 0.04) * pow2(generator.unit())
        let pixels = megapixels * 1_000_000
        let width = Int((pixels * aspect).squareRoot().rounded())
        let height = Int((Double(width) / aspect).rounded())
        return (width, height)
    }

    /// Bends a uniform draw towards small values: 0 -> 0, 0.5 -> 0.35, 1 -> 1.
    private static func pow2(_ x: Double) -> Double { x * x * 0.6 + x * 0.4 }

    private static func text(_ id: Int) -> (String, String) {
        var generator = SeededGenerator(id, .text)
        let name = "\(generator.pick(DemoText.adjectives)) \(generator.pick(DemoText.subjects))"
        let place = generator.pick(DemoText.places)
        let closer = generator.pick(DemoText.descriptionClosers)
        let opener = generator.pick(DemoText.descriptionOpeners)
        let description = closer.isEmpty ? "\(opener) in \(place)." : "\(opener) in \(place). \(closer)"
        return (generator.next() % 5 == 0 ? "\(name), \(place)" : name, description)
    }

    /// Users come from a pool of 150, so the same photographers show up again and again.
    static func username(_ seed: Int) -> String {
        var generator = SeededGenerator(seed % 150, .user)
        return "\(generator.pick(DemoText.userFirst))\(generator.pick(DemoText.userSecond))\(10 + generator.next() % 90)"
    }

    private static func rating(ordinal: Int, jitter: Double) -> Double {
        let value = 99.9 - Double(ordinal) * 0.045 - jitter * 0.4
        return (max(40, value) * 10).rounded() / 10
    }
}
