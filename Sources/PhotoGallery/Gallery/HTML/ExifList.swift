import Foundation

/// A photo page's "Camera" list: what the original's EXIF says, one `<dt>`/`<dd>` pair per field
/// present, in the order a photographer reads them. The camera's strings are untrusted text; the
/// numbers are formatted here. The GPS position is shown only with `showLocation`, as coordinates
/// (text, no map service).
struct ExifList {
    var exif: ExifMetadata
    var showLocation: Bool

    /// The list, or nil when no field is shown.
    func node() -> Node? {
        let rows = rows()
        guard !rows.isEmpty else { return nil }
        return .element("dl", attributes: ["class": "exif"], children: rows.flatMap { label, value in
            [.element("dt", children: [.text(label)]), .element("dd", children: [value])]
        })
    }

    func rows() -> [(String, Node)] {
        var rows: [(String, Node)] = []
        if let camera = Self.camera(make: exif.make, model: exif.model) { rows.append(("Camera", GalleryDocument.isolated(camera))) }
        if let lens = exif.lens { rows.append(("Lens", GalleryDocument.isolated(lens))) }
        if let time = exif.exposureTime { rows.append(("Exposure", .text(Self.exposure(time)))) }
        if let f = exif.fNumber { rows.append(("Aperture", .text("f/" + Self.number(f, decimals: 1)))) }
        if let iso = exif.iso { rows.append(("ISO", .text(String(iso)))) }
        if let focal = exif.focalLength { rows.append(("Focal length", .text(Self.number(focal, decimals: 1) + " mm"))) }
        if let date = exif.dateTaken {
            rows.append(("Taken", .element("time", attributes: ["datetime": date], children: [
                .text(date.replacingOccurrences(of: "T", with: " ")),
            ])))
        }
        if showLocation, let latitude = exif.latitude, let longitude = exif.longitude {
            var text = Self.coordinate(latitude, positive: "N", negative: "S") + ", "
                + Self.coordinate(longitude, positive: "E", negative: "W")
            if let altitude = exif.altitude { text += ", " + Self.number(altitude, decimals: 0) + " m" }
            rows.append(("Location", .text(text)))
        }
        return rows
    }

    /// Make and model, the make left out when the model already starts with it ("Canon" + "Canon EOS R5").
    static func camera(make: String?, model: String?) -> String? {
        switch (make, model) {
        case let (make?, model?):
            model.lowercased().hasPrefix(make.lowercased().split(separator: " ").first.map(String.init) ?? make.lowercased())
                ? model : make + " " + model
        case let (make?, nil): make
        case let (nil, model?): model
        case (nil, nil): nil
        }
    }

    /// `1/250 s` below a second (as cameras show it), `2.5 s` above.
    static func exposure(_ seconds: Double) -> String {
        if seconds < 1 {
            let denominator = (1 / seconds).rounded()
            return denominator < 1e9 ? "1/\(Int(denominator)) s" : "\(seconds) s"
        }
        return number(seconds, decimals: 1) + " s"
    }

    /// `value` with at most `decimals` decimals, trailing zeros dropped (`8`, `2.8`).
    static func number(_ value: Double, decimals: Int) -> String {
        var text = String(format: "%.\(decimals)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    static func coordinate(_ degrees: Double, positive: String, negative: String) -> String {
        String(format: "%.5f° ", abs(degrees)) + (degrees < 0 ? negative : positive)
    }
}
