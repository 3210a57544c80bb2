import Testing
@testable import GalleryKit
@testable import GalleryDataset

/// The resize modes' sizes against img2dataset 1.47's own output (its Resizer on blank images of these sizes,
/// image_size 256, recorded with albumentations 1.4 and OpenCV): exact here, where the issue allows one pixel.
@Suite struct ResizeGeometryTests {
    /// (mode, resize_only_if_bigger, source width, height, img2dataset's width, height)
    static let img2dataset: [(String, Bool, Int, Int, Int, Int)] = [
        ("no", false, 640, 480, 640, 480),
        ("no", false, 480, 640, 480, 640),
        ("no", false, 1000, 1, 1000, 1),
        ("no", false, 257, 256, 257, 256),
        ("no", false, 255, 100, 255, 100),
        ("no", false, 100, 255, 100, 255),
        ("no", false, 300, 7, 300, 7),
        ("no", false, 4000, 3000, 4000, 3000),
        ("no", false, 333, 999, 333, 999),
        ("no", false, 50, 50, 50, 50),
        ("no", false, 256, 256, 256, 256),
        ("no", false, 1023, 767, 1023, 767),
        ("no", true, 640, 480, 640, 480),
        ("no", true, 480, 640, 480, 640),
        ("no", true, 1000, 1, 1000, 1),
        ("no", true, 257, 256, 257, 256),
        ("no", true, 255, 100, 255, 100),
        ("no", true, 100, 255, 100, 255),
        ("no", true, 300, 7, 300, 7),
        ("no", true, 4000, 3000, 4000, 3000),
        ("no", true, 333, 999, 333, 999),
        ("no", true, 50, 50, 50, 50),
        ("no", true, 256, 256, 256, 256),
        ("no", true, 1023, 767, 1023, 767),
        ("border", false, 640, 480, 256, 256),
        ("border", false, 480, 640, 256, 256),
        ("border", false, 1000, 1, 256, 256),
        ("border", false, 257, 256, 256, 256),
        ("border", false, 255, 100, 256, 256),
        ("border", false, 100, 255, 256, 256),
        ("border", false, 300, 7, 256, 256),
        ("border", false, 4000, 3000, 256, 256),
        ("border", false, 333, 999, 256, 256),
        ("border", false, 50, 50, 256, 256),
        ("border", false, 256, 256, 256, 256),
        ("border", false, 1023, 767, 256, 256),
        ("border", true, 640, 480, 256, 256),
        ("border", true, 480, 640, 256, 256),
        ("border", true, 1000, 1, 256, 256),
        ("border", true, 257, 256, 256, 256),
        ("border", true, 255, 100, 255, 100),
        ("border", true, 100, 255, 100, 255),
        ("border", true, 300, 7, 256, 256),
        ("border", true, 4000, 3000, 256, 256),
        ("border", true, 333, 999, 256, 256),
        ("border", true, 50, 50, 50, 50),
        ("border", true, 256, 256, 256, 256),
        ("border", true, 1023, 767, 256, 256),
        ("keep_ratio", false, 640, 480, 341, 256),
        ("keep_ratio", false, 480, 640, 256, 341),
        ("keep_ratio", false, 257, 256, 257, 256),
        ("keep_ratio", false, 255, 100, 653, 256),
        ("keep_ratio", false, 100, 255, 256, 653),
        ("keep_ratio", false, 300, 7, 10971, 256),
        ("keep_ratio", false, 4000, 3000, 341, 256),
        ("keep_ratio", false, 333, 999, 256, 768),
        ("keep_ratio", false, 50, 50, 256, 256),
        ("keep_ratio", false, 256, 256, 256, 256),
        ("keep_ratio", false, 1023, 767, 341, 256),
        ("keep_ratio", true, 640, 480, 341, 256),
        ("keep_ratio", true, 480, 640, 256, 341),
        ("keep_ratio", true, 1000, 1, 1000, 1),
        ("keep_ratio", true, 257, 256, 257, 256),
        ("keep_ratio", true, 255, 100, 255, 100),
        ("keep_ratio", true, 100, 255, 100, 255),
        ("keep_ratio", true, 300, 7, 300, 7),
        ("keep_ratio", true, 4000, 3000, 341, 256),
        ("keep_ratio", true, 333, 999, 256, 768),
        ("keep_ratio", true, 50, 50, 50, 50),
        ("keep_ratio", true, 256, 256, 256, 256),
        ("keep_ratio", true, 1023, 767, 341, 256),
        ("keep_ratio_largest", false, 640, 480, 256, 192),
        ("keep_ratio_largest", false, 480, 640, 192, 256),
        ("keep_ratio_largest", false, 1000, 1, 256, 1),
        ("keep_ratio_largest", false, 257, 256, 256, 255),
        ("keep_ratio_largest", false, 255, 100, 256, 100),
        ("keep_ratio_largest", false, 100, 255, 100, 256),
        ("keep_ratio_largest", false, 300, 7, 256, 6),
        ("keep_ratio_largest", false, 4000, 3000, 256, 192),
        ("keep_ratio_largest", false, 333, 999, 85, 256),
        ("keep_ratio_largest", false, 50, 50, 256, 256),
        ("keep_ratio_largest", false, 256, 256, 256, 256),
        ("keep_ratio_largest", false, 1023, 767, 256, 192),
        ("keep_ratio_largest", true, 640, 480, 256, 192),
        ("keep_ratio_largest", true, 480, 640, 192, 256),
        ("keep_ratio_largest", true, 1000, 1, 256, 1),
        ("keep_ratio_largest", true, 257, 256, 256, 255),
        ("keep_ratio_largest", true, 255, 100, 255, 100),
        ("keep_ratio_largest", true, 100, 255, 100, 255),
        ("keep_ratio_largest", true, 300, 7, 256, 6),
        ("keep_ratio_largest", true, 4000, 3000, 256, 192),
        ("keep_ratio_largest", true, 333, 999, 85, 256),
        ("keep_ratio_largest", true, 50, 50, 50, 50),
        ("keep_ratio_largest", true, 256, 256, 256, 256),
        ("keep_ratio_largest", true, 1023, 767, 256, 192),
        ("center_crop", false, 640, 480, 256, 256),
        ("center_crop", false, 480, 640, 256, 256),
        ("center_crop", false, 1000, 1, 256, 256),
        ("center_crop", false, 257, 256, 256, 256),
        ("center_crop", false, 255, 100, 256, 256),
        ("center_crop", false, 100, 255, 256, 256),
        ("center_crop", false, 300, 7, 256, 256),
        ("center_crop", false, 4000, 3000, 256, 256),
        ("center_crop", false, 333, 999, 256, 256),
        ("center_crop", false, 50, 50, 256, 256),
        ("center_crop", false, 256, 256, 256, 256),
        ("center_crop", false, 1023, 767, 256, 256),
        ("center_crop", true, 640, 480, 256, 256),
        ("center_crop", true, 480, 640, 256, 256),
        ("center_crop", true, 1000, 1, 1000, 1),
        ("center_crop", true, 257, 256, 257, 256),
        ("center_crop", true, 255, 100, 255, 100),
        ("center_crop", true, 100, 255, 100, 255),
        ("center_crop", true, 300, 7, 300, 7),
        ("center_crop", true, 4000, 3000, 256, 256),
        ("center_crop", true, 333, 999, 256, 256),
        ("center_crop", true, 50, 50, 50, 50),
        ("center_crop", true, 256, 256, 256, 256),
        ("center_crop", true, 1023, 767, 256, 256),
    ]

    @Test func sizesMatchImg2dataset() {
        for (mode, onlyIfBigger, w, h, ew, eh) in Self.img2dataset {
            let g = ResizeGeometry(sourceWidth: w, sourceHeight: h, size: 256, mode: DatasetResizeMode(rawValue: mode)!,
                                   onlyIfBigger: onlyIfBigger)
            #expect(abs(g.width - ew) <= 1 && abs(g.height - eh) <= 1,
                    "\(mode) only-if-bigger=\(onlyIfBigger) \(w)x\(h): ours \(g.width)x\(g.height), img2dataset \(ew)x\(eh)")
        }
    }

    @Test func borderPadsCentredAndCenterCropCutsCentred() {
        let border = ResizeGeometry(sourceWidth: 640, sourceHeight: 480, size: 256, mode: .border, onlyIfBigger: false)
        #expect(border.scaledWidth == 256 && border.scaledHeight == 192)
        #expect(border.offsetX == 0 && border.offsetY == 32)
        let crop = ResizeGeometry(sourceWidth: 640, sourceHeight: 480, size: 256, mode: .centerCrop, onlyIfBigger: false)
        #expect(crop.scaledWidth == 341 && crop.scaledHeight == 256)
        #expect(crop.offsetX == -42 && crop.offsetY == 0)
    }

    /// Python rounds half to even: 300x7 by border (long side 256) gives 7 * 256/300 = 5.97 -> 6, and a
    /// half case 2 * 0.5 ... checked through a size whose scaled side is exactly x.5.
    @Test func roundsHalfToEvenAsPython() {
        // 512x5 -> keep_ratio_largest 256: 5 * 0.5 = 2.5 -> 2 (Python's round), not 3.
        let g = ResizeGeometry(sourceWidth: 512, sourceHeight: 5, size: 256, mode: .keepRatioLargest, onlyIfBigger: false)
        #expect(g.width == 256 && g.height == 2)
    }

    @Test func onlyIfBiggerLeavesSmallImagesAlone() {
        let g = ResizeGeometry(sourceWidth: 100, sourceHeight: 80, size: 256, mode: .border, onlyIfBigger: true)
        #expect(!g.resizes && g.width == 100 && g.height == 80)
        let up = ResizeGeometry(sourceWidth: 100, sourceHeight: 80, size: 256, mode: .keepRatio, onlyIfBigger: false)
        #expect(up.resizes && up.upscales && up.width == 320 && up.height == 256)
    }
}

/// `--resize-mode fixed`: exactly the size asked, whatever the aspect ratio; with --resize-only-if-bigger
/// an image that already fits is left alone.
@Suite struct FixedResizeGeometryTests {
    @Test func fixedIsExactlyTheSize() {
        for (w, h, tw, th, only, ew, eh, resizes) in [
            (640, 480, 256, 256, false, 256, 256, true), (480, 640, 256, 192, false, 256, 192, true),
            (100, 80, 256, 256, false, 256, 256, true), (100, 80, 256, 256, true, 100, 80, false),
            (300, 80, 256, 256, true, 256, 256, true), (256, 256, 256, 256, false, 256, 256, false),
            (1, 1000, 64, 32, false, 64, 32, true),
        ] {
            let g = ResizeGeometry(sourceWidth: w, sourceHeight: h, size: tw, height: th, mode: .fixed, onlyIfBigger: only)
            #expect(g.width == ew && g.height == eh && g.scaledWidth == ew && g.scaledHeight == eh && g.resizes == resizes
                    && g.offsetX == 0 && g.offsetY == 0, "\(w)x\(h) to \(tw)x\(th) only-if-bigger=\(only): \(g)")
        }
        #expect(ResizeGeometry(sourceWidth: 100, sourceHeight: 80, size: 256, height: 256, mode: .fixed, onlyIfBigger: false).upscales)
        #expect(!ResizeGeometry(sourceWidth: 300, sourceHeight: 80, size: 256, height: 256, mode: .fixed, onlyIfBigger: false).upscales)
    }
}
