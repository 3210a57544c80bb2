import Foundation
import GalleryTestSupport
import GallerySync
@testable import GalleryKit

/// Real photographs and copies of them made with ImageMagick (and exiftool), the way the web copies
/// photos: positives (the same photo resized, recompressed, converted, cropped, EXIF-rotated) and
/// negatives (the same scene panned by a fifth, as a burst's next frame; the same scene with an
/// object moved across it, or a patch of the photo itself moved; a burst's next frames, the photo panned by 5%, 10% and 20% of its longer side
/// (the window that far along, resized back to the photo's size); the photo with 5% or 10% of its area
/// replaced by another photo's pixels there). Made once per test process in a temporary folder.
struct PhotoCopies: Sendable {
    struct Image: Sendable {
        var path: String
        /// Which photograph it shows (index into ``PhotoCopies/photos``).
        var photo: Int
        var kind: String
    }

    /// The demo catalogue's eleven photographs and three of the corpus.
    static let photos: [String] = {
        let demo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/GalleryDemo/Resources/demo-photos").path
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: demo)) ?? []).filter { $0.hasSuffix(".jpg") }.sorted()
        return names.map { demo + "/" + $0 } + ["libjpeg-turbo/testorig.jpg", "exif-orientation/Landscape_1.jpg",
                                                 "exif-orientation/Portrait_1.jpg"].map { try! Corpus.path($0) }
    }()

    /// The copies that are the same photograph (ImageMagick arguments; the output's extension last).
    static let positives: [(kind: String, arguments: [String], ext: String)] = [
        ("resized 25%", ["-resize", "25%"], "jpg"), ("resized 50%", ["-resize", "50%"], "jpg"),
        ("resized 200%", ["-resize", "200%"], "jpg"), ("JPEG q40", ["-quality", "40"], "jpg"),
        ("JPEG q95", ["-quality", "95"], "jpg"), ("PNG", [], "png"), ("WebP q80", ["-quality", "80"], "webp"),
        ("cropped 5% right and bottom", ["-gravity", "NorthWest", "-crop", "95%x95%+0+0", "+repage"], "jpg"),
        ("cropped 5% all round", ["-gravity", "Center", "-crop", "95%x95%+0+0", "+repage"], "jpg"),
        ("stored rotated, EXIF orientation 8", ["-rotate", "90"], "jpg"),
    ]

    let folder: String
    /// Per photo: the original (kind "original") then every positive.
    let images: [Image]
    /// Per photo: pairs of different frames of one scene.
    let bursts: [(Image, Image)]
    /// Per photo: the frames of a burst, "pan 0%" (the original), "pan 5%", "pan 10%", "pan 20%" (the
    /// window from that share of the photo's longer side to its end, resized back to the photo's size:
    /// the frame panned by it), and "region 5%", "region 10%" (the photo with that share of its area, a
    /// rectangle of its shape, replaced by another photo's pixels).
    let scenes: [[String: Image]]

    /// The burst's pans, in percent of the photo's longer side.
    static let pans = [5, 10, 20]
    /// The changed regions, in percent of the photo's area.
    static let regions = [5, 10]

    /// Every image made: the originals and copies, the bursts' pairs, the scenes' frames.
    var all: [Image] { images + bursts.flatMap { [$0.0, $0.1] } + scenes.flatMap { $0.values.filter { $0.kind != "pan 0%" } } }

    private static let made = Locked<PhotoCopies?>(nil)

    /// The copies, made on first use.
    static func shared() throws -> PhotoCopies {
        try made.withLock { (cached: inout PhotoCopies?) throws -> PhotoCopies in
            if let cached { return cached }
            let copies = try PhotoCopies()
            cached = copies
            return copies
        }
    }

    private init() throws {
        folder = NSTemporaryDirectory() + "gallerykit-copies-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var images: [Image] = [], bursts: [(Image, Image)] = [], commands: [String] = [], rotated: [String] = []
        var scenes: [[String: Image]] = []
        func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        // The originals at most 800 pixels a side (JPEG q92), so the copies take seconds, not minutes.
        var originals: [String] = []
        for (index, source) in Self.photos.enumerated() {
            let original = folder + "/\(index)-original.jpg"
            originals.append(original)
            commands.append("convert \(quoted(source)) -auto-orient -resize '800x800>' -quality 92 \(quoted(original))")
        }
        try Self.shell(commands.joined(separator: " &\n") + "\nwait")
        commands = []
        for (index, original) in originals.enumerated() {
            images.append(Image(path: original, photo: index, kind: "original"))
            for (number, copy) in Self.positives.enumerated() {
                let path = folder + "/\(index)-copy\(number).\(copy.ext)"
                commands.append("convert \(quoted(original)) " + copy.arguments.map(quoted).joined(separator: " ") + " \(quoted(path))")
                if copy.kind.hasPrefix("stored rotated") { rotated.append(path) }
                images.append(Image(path: path, photo: index, kind: copy.kind))
            }
            let size = try ImageDecoder.probe([UInt8](Data(contentsOf: URL(fileURLWithPath: original))), name: original)
            let (w, h) = (size.width, size.height)
            // A pan by a fifth of the width: the next frame of a burst.
            let left = folder + "/\(index)-pan-left.jpg", right = folder + "/\(index)-pan-right.jpg"
            commands.append("convert \(quoted(original)) -gravity NorthWest -crop 80%x100%+0+0 +repage \(quoted(left))")
            commands.append("convert \(quoted(original)) -gravity NorthEast -crop 80%x100%+0+0 +repage \(quoted(right))")
            bursts.append((Image(path: left, photo: index, kind: "panned left"), Image(path: right, photo: index, kind: "panned right")))
            // A person-sized object (a quarter of the height) moved from the left third to the right third.
            let r = h / 8, y = h / 2
            for (name, x) in [("object-left", w / 4), ("object-right", 3 * w / 4)] {
                commands.append("convert \(quoted(original)) -fill '#2a3550' -draw 'roundrectangle \(x - r),\(y - 2 * r) \(x + r),\(y + 2 * r) \(r / 2),\(r / 2)' \(quoted(folder + "/\(index)-\(name).jpg"))")
            }
            bursts.append((Image(path: folder + "/\(index)-object-left.jpg", photo: index, kind: "object left"),
                           Image(path: folder + "/\(index)-object-right.jpg", photo: index, kind: "object right")))
            // The photo's own content moved: a patch of it (an eighth of its width, a quarter of its height, from
            // its centre) pasted over its left third in one frame and over its right third in the other.
            let (pw, ph) = (w / 8, h / 4), py = h / 2 - h / 8
            for (name, x) in [("patch-left", w / 4 - pw / 2), ("patch-right", 3 * w / 4 - pw / 2)] {
                commands.append("convert \(quoted(original)) \\( \(quoted(original)) -crop \(pw)x\(ph)+\(w / 2 - pw / 2)+\(py) +repage \\) "
                                + "-geometry +\(x)+\(py) -composite -quality 92 \(quoted(folder + "/\(index)-\(name).jpg"))")
            }
            bursts.append((Image(path: folder + "/\(index)-patch-left.jpg", photo: index, kind: "patch left"),
                           Image(path: folder + "/\(index)-patch-right.jpg", photo: index, kind: "patch right")))
            // A burst: the frame panned along its longer side, resized back to the photo's size.
            var scene: [String: Image] = ["pan 0%": Image(path: original, photo: index, kind: "pan 0%")]
            for pan in Self.pans {
                let path = folder + "/\(index)-pan\(pan).jpg"
                let window = w >= h ? "\(w - w * pan / 100)x\(h)+\(w * pan / 100)+0" : "\(w)x\(h - h * pan / 100)+0+\(h * pan / 100)"
                commands.append("convert \(quoted(original)) -crop \(window) +repage -resize '\(w)x\(h)!' -quality 92 \(quoted(path))")
                scene["pan \(pan)%"] = Image(path: path, photo: index, kind: "pan \(pan)%")
            }
            // A changed region: a rectangle of the photo's shape, somewhere different in each photo, taken
            // from another photograph.
            let donor = Self.photos[(index + 3) % Self.photos.count]
            for area in Self.regions {
                let path = folder + "/\(index)-region\(area).jpg"
                let side = (Double(area) / 100).squareRoot()
                let (rw, rh) = (Int(Double(w) * side), Int(Double(h) * side))
                let x = (w - rw) * [10, 50, 30, 60][index % 4] / 100, y = (h - rh) * [20, 40, 55, 10][index / 2 % 4] / 100
                commands.append("convert \(quoted(original)) \\( \(quoted(donor)) -auto-orient -resize '\(w)x\(h)!' -crop \(rw)x\(rh)+\(x)+\(y) +repage \\) "
                                + "-geometry +\(x)+\(y) -composite -quality 92 \(quoted(path))")
                scene["region \(area)%"] = Image(path: path, photo: index, kind: "region \(area)%")
            }
            scenes.append(scene)
        }
        // Two at a time: the machine has two CPUs.
        for pair in stride(from: 0, to: commands.count, by: 2) {
            try Self.shell(commands[pair..<min(pair + 2, commands.count)].joined(separator: " &\n") + "\nwait")
        }
        // Stored turned a quarter clockwise; orientation 8 tells viewers to turn it back.
        for path in rotated { try ExifTool.write(["Orientation#": "8"], to: path) }
        for image in images + bursts.flatMap({ [$0.0, $0.1] }) + scenes.flatMap({ $0.values.filter { $0.kind != "pan 0%" } }) {
            guard FileManager.default.fileExists(atPath: image.path) else { throw TestSupportError.corpusFileMissing(path: image.path) }
        }
        self.images = images
        self.bursts = bursts
        self.scenes = scenes
    }

    private static func shell(_ script: String) throws {
        let result = try ProcessRunner.run("bash", ["-c", "set -e\n" + script], timeout: 600)
        guard result.exitCode == 0 else {
            throw TestSupportError.launchFailed(executable: "convert", reason: result.stderrText)
        }
    }

    /// The pHash the gallery computes for the file: from its upright 256-pixel thumbnail.
    static func hash(_ path: String) throws -> PerceptualHash { try fingerprint(path).phash }

    /// The hashes and grey reduction the gallery computes for the file, from its upright 256-pixel thumbnail.
    static func fingerprint(_ path: String) throws -> ImageFingerprint {
        let decoded = try ImageDecoder.decode(fileAt: path, options: DecodeOptions(target: .longestEdge(256)))
        return ImageFingerprint(of: Thumbnailer(longestEdge: 256).render(decoded))
    }
}
