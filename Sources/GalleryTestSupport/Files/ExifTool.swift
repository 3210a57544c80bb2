import Foundation

/// Phil Harvey's exiftool (Debian's `libimage-exiftool-perl`, installed by Scripts/bootstrap), the
/// reference reader and writer of EXIF: tests write real tags into real photos with it, and check
/// our reader against what it reads back.
public enum ExifTool {
    /// Tags a photographer's camera writes, as exiftool names them, for a Canon shot in Paris.
    public static let cameraTags: [String: String] = [
        "Make": "Canon", "Model": "Canon EOS R5", "LensModel": "RF24-105mm F4 L IS USM",
        "ExposureTime": "1/250", "FNumber": "8", "ISO": "200", "FocalLength": "35",
        "DateTimeOriginal": "2024:05:01 14:30:05", "OffsetTimeOriginal": "+02:00",
        "GPSLatitude": "48.858370", "GPSLatitudeRef": "N", "GPSLongitude": "2.294481", "GPSLongitudeRef": "E",
        "GPSAltitude": "35", "GPSAltitudeRef": "0",
    ]

    /// Writes `tags` into the file at `path` in place.
    public static func write(_ tags: [String: String], to path: String) throws(TestSupportError) {
        let arguments = ["-q", "-overwrite_original"] + tags.sorted { $0.key < $1.key }.map { "-\($0.key)=\($0.value)" } + [path]
        let result = try ProcessRunner.run("exiftool", arguments, timeout: 60)
        guard result.exitCode == 0 else {
            throw .launchFailed(executable: "exiftool", reason: "exit \(String(describing: result.exitCode)) writing \(path): \(result.stderrText)")
        }
    }

    /// Every tag exiftool reads from `path`, numeric (`-n`), as JSON values by tag name.
    public static func read(_ path: String) throws(TestSupportError) -> [String: Any] {
        let result = try ProcessRunner.run("exiftool", ["-n", "-j", path], timeout: 60)
        guard result.exitCode == 0,
              let list = try? JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]], let first = list.first
        else { throw .launchFailed(executable: "exiftool", reason: "cannot read \(path): \(result.stderrText)") }
        return first
    }
}
