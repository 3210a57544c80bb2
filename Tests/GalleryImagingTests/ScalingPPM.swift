import Foundation
import GalleryImaging

/// Binary PPM (P6) and PGM (P5) reading and writing, so the opt-in quality run can take `djpeg`
/// output and hand results to `Scripts/psnr.py` without depending on the decoder being built.
enum ScalingPPM {
    struct FormatError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    static func read(_ path: String) throws -> Bitmap {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        var pos = 0
        func token() throws -> String {
            while pos < data.count {
                if data[pos] == UInt8(ascii: "#") {
                    while pos < data.count && data[pos] != UInt8(ascii: "\n") { pos += 1 }
                } else if data[pos] == 0x20 || (0x09...0x0D).contains(data[pos]) {
                    pos += 1
                } else { break }
            }
            let start = pos
            while pos < data.count && !(data[pos] == 0x20 || (0x09...0x0D).contains(data[pos])) { pos += 1 }
            guard pos > start else { throw FormatError(path: path, reason: "truncated header") }
            return String(decoding: data[start..<pos], as: UTF8.self)
        }
        let magic = try token()
        guard let width = Int(try token()), let height = Int(try token()), try token() == "255",
              magic == "P6" || magic == "P5" else {
            throw FormatError(path: path, reason: "only 8-bit binary P6/P5 is supported")
        }
        pos += 1 // the single whitespace byte after maxval
        let format: PixelFormat = magic == "P6" ? .rgb8 : .gray8
        let count = width * height * format.channels
        guard data.count - pos >= count else { throw FormatError(path: path, reason: "truncated pixels") }
        return Bitmap(width: width, height: height, format: format, pixels: Array(data[pos..<(pos + count)]))
    }

    static func write(_ bitmap: Bitmap, to path: String) throws {
        precondition(bitmap.format == .rgb8 || bitmap.format == .gray8, "PPM/PGM holds RGB or grey only")
        var data = Data("\(bitmap.format == .rgb8 ? "P6" : "P5")\n\(bitmap.width) \(bitmap.height)\n255\n".utf8)
        let rowBytes = bitmap.width * bitmap.format.channels
        bitmap.withUnsafeBytes { raw in
            for y in 0..<bitmap.height {
                data.append(contentsOf: raw[(y * bitmap.bytesPerRow)..<(y * bitmap.bytesPerRow + rowBytes)])
            }
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
}
