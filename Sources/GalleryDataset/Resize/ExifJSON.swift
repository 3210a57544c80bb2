import Foundation
import GalleryImaging

/// The `exif` column: a JSON object of EXIF tags named as the exifread library names them ("Image Make",
/// "EXIF ExposureTime", ...), `{}` for an image without EXIF. The project's EXIF reader keeps the camera's
/// description of the shot, not every tag, so this holds make, model, lens, exposure, aperture, ISO, focal
/// length, date and GPS position (rationals as decimals), where exifread lists every tag as it prints them.
enum ExifJSON {
    /// Of the image's bytes, in memory or a mapped spool file.
    static func json(for data: UnsafeRawBufferPointer) -> String {
        guard let exif = ExifReader.metadata(in: data) else { return "{}" }
        var tags: [String: String] = [:]
        tags["Image Make"] = exif.make
        tags["Image Model"] = exif.model
        tags["EXIF LensModel"] = exif.lens
        tags["EXIF ExposureTime"] = exif.exposureTime.map(Self.exposure)
        tags["EXIF FNumber"] = exif.fNumber.map(Self.decimal)
        tags["EXIF ISOSpeedRatings"] = exif.iso.map(String.init)
        tags["EXIF FocalLength"] = exif.focalLength.map(Self.decimal)
        tags["EXIF DateTimeOriginal"] = exif.dateTaken
        tags["GPS GPSLatitude"] = exif.latitude.map(Self.decimal)
        tags["GPS GPSLongitude"] = exif.longitude.map(Self.decimal)
        tags["GPS GPSAltitude"] = exif.altitude.map(Self.decimal)
        guard let data = try? JSONSerialization.data(withJSONObject: tags, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func exposure(_ seconds: Double) -> String {
        seconds < 1 && seconds > 0 ? "1/\(Int((1 / seconds).rounded()))" : decimal(seconds)
    }

    private static func decimal(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.6g", value)
    }
}
