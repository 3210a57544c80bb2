import GalleryImaging
import Testing

@Suite("targetSize(forSourceWidth:height:longestEdge:)")
struct ScalingTargetSizeTests {
    @Test(arguments: [
        (3000, 2000, 256, 256, 171),
        (2000, 3000, 256, 171, 256),
        (500, 375, 256, 256, 192),
        (1000, 1000, 256, 256, 256),
        (4000, 10, 256, 256, 1), // 0.64 rounds to 1 and never below
        (10000, 1, 100, 100, 1),
        (1, 5000, 64, 1, 64),
        (256, 100, 256, 256, 100), // already fits: unchanged
        (200, 100, 256, 200, 100), // smaller: never upscaled
        (640, 480, 0, 1, 1), // edge below 1 acts as 1
    ])
    func sizes(source: (Int, Int, Int, Int, Int)) {
        let (w, h, edge, ew, eh) = source
        let size = targetSize(forSourceWidth: w, height: h, longestEdge: edge)
        #expect(size.width == ew && size.height == eh, "\(w)x\(h) -> \(edge): got \(size.width)x\(size.height)")
    }

    @Test func aspectRatioIsKeptWithinHalfAPixel() {
        for (w, h) in [(4032, 3024), (6000, 4000), (1234, 567), (999, 1001), (4000, 3)] {
            let size = targetSize(forSourceWidth: w, height: h, longestEdge: 300)
            #expect(max(size.width, size.height) == 300)
            let exact = Double(min(w, h)) * 300 / Double(max(w, h))
            #expect(abs(Double(min(size.width, size.height)) - max(1, exact)) <= 0.5)
        }
    }
}
