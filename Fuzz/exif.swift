// libFuzzer target: the EXIF metadata reader (TIFF IFD walk, Exif and GPS sub-IFDs) and the container
// walks that find the EXIF block in JPEG, PNG and WebP files.
// Invariants: no trap, no hang (a loop of IFD pointers ends); every number is finite, positive where
// the field must be, coordinates within range; strings at most 256 bytes; the date has EXIF's checked
// form; the result encodes as JSON (the manifest), and dropping the location leaves none.
import Foundation
import GalleryImaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    // The whole input as a file (JPEG/PNG/WebP sniffed), and as a bare TIFF block.
    check(ExifReader.metadata(in: bytes))
    check(ExifReader.metadata(inTIFF: bytes))
    _ = ExifReader.orientation(inTIFF: bytes)
    _ = ExifReader.orientation(inJPEG: bytes)
    return 0
}

private func check(_ exif: ExifMetadata?) {
    guard let exif else { return }
    require(!exif.isEmpty, "an empty result must be nil")
    for value in [exif.exposureTime, exif.fNumber, exif.focalLength] {
        require(value.map { $0.isFinite && $0 > 0 } ?? true, "non-positive or non-finite value \(String(describing: value))")
    }
    require(exif.iso.map { $0 > 0 } ?? true, "ISO \(String(describing: exif.iso))")
    require(exif.latitude.map { abs($0) <= 90 } ?? true, "latitude \(String(describing: exif.latitude))")
    require(exif.longitude.map { abs($0) <= 180 } ?? true, "longitude \(String(describing: exif.longitude))")
    require(exif.altitude.map { $0.isFinite } ?? true, "altitude")
    require((exif.latitude == nil) == (exif.longitude == nil), "half a position")
    for text in [exif.make, exif.model, exif.lens] {
        require((text?.utf8.count ?? 0) <= 256 * 3, "string longer than the cut")
    }
    if let date = exif.dateTaken {
        require(date.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}([+-][0-9]{2}:[0-9]{2})?/) != nil,
                "date \(date)")
    }
    require((try? JSONEncoder().encode(exif)) != nil, "not encodable")
    require(exif.withoutLocation?.hasLocation != true, "location kept")
}
