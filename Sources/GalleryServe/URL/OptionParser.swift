/// Reads imgproxy's `name:arg:arg` option segments into ``ProcessingOptions``. Every name the service
/// does not implement is refused with a 400 that names it, never silently ignored.
enum OptionParser {
    /// Applies one segment (`rs:fill:300:200`, `q:80`, `pr:thumb` ...) to `options`.
    static func apply(_ segment: String, to options: inout ProcessingOptions, presets: Presets, depth: Int = 0) throws(ServeError) {
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        let args = Array(parts.dropFirst())
        func need(_ range: ClosedRange<Int>) throws(ServeError) {
            guard range.contains(args.count) else {
                throw .badRequest("option '\(segment)': \(name) takes \(range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)") arguments")
            }
        }
        switch name {
        case "resize", "rs":
            try need(1...5)
            try setResizingType(args[0], &options, segment)
            try setSize(Array(args.dropFirst()), &options, segment)
        case "size", "s":
            try need(1...4)
            try setSize(args, &options, segment)
        case "resizing_type", "rt":
            try need(1...1)
            try setResizingType(args[0], &options, segment)
        case "width", "w":
            try need(1...1)
            options.width = try dimension(args[0], segment)
        case "height", "h":
            try need(1...1)
            options.height = try dimension(args[0], segment)
        case "gravity", "g":
            try need(1...3)
            guard let type = ProcessingOptions.GravityType(rawValue: args[0]) else {
                throw .badRequest("option '\(segment)': gravity '\(args[0])' is not one of ce, no, so, ea, we, noea, nowe, soea, sowe, sm")
            }
            options.gravity = ProcessingOptions.Gravity(type: type, x: try number(args, 1, segment) ?? 0,
                                                        y: try number(args, 2, segment) ?? 0)
        case "quality", "q":
            try need(1...1)
            guard let quality = Int(args[0]), (0...100).contains(quality) else {
                throw .badRequest("option '\(segment)': quality must be 0...100")
            }
            options.quality = quality == 0 ? nil : quality
        case "format", "f", "ext":
            try need(1...1)
            guard let format = ProcessingOptions.OutputFormat(name: args[0]) else {
                throw .badRequest("option '\(segment)': format '\(args[0])' is not jpg, png, webp or avif")
            }
            options.format = format
        case "dpr":
            try need(1...1)
            guard let dpr = Double(args[0]), dpr > 0, dpr <= 8 else { throw .badRequest("option '\(segment)': dpr must be above 0 and at most 8") }
            options.dpr = dpr
        case "enlarge", "el":
            try need(1...1)
            options.enlarge = try flag(args[0], segment)
        case "auto_rotate", "ar":
            try need(1...1)
            guard try flag(args[0], segment) else {
                throw .badRequest("option '\(segment)': auto_rotate cannot be turned off here (the EXIF orientation is always applied)")
            }
        case "blur", "bl":
            try need(1...1)
            guard let sigma = Double(args[0]), sigma >= 0, sigma <= 100 else { throw .badRequest("option '\(segment)': blur sigma must be 0...100") }
            options.blur = sigma
        case "preset", "pr":
            try need(1...32)
            for preset in args { try applyPreset(preset, to: &options, presets: presets, depth: depth) }
        default:
            throw .badRequest("unsupported processing option '\(name)' in '\(segment)'")
        }
    }

    static func applyPreset(_ name: String, to options: inout ProcessingOptions, presets: Presets, depth: Int) throws(ServeError) {
        guard let segments = presets.definitions[name] else { throw .badRequest("unknown preset '\(name)'") }
        guard depth < 4 else { throw .badRequest("preset '\(name)' nests too deeply") }
        for segment in segments { try apply(segment, to: &options, presets: presets, depth: depth + 1) }
    }

    private static func setResizingType(_ text: String, _ options: inout ProcessingOptions, _ segment: String) throws(ServeError) {
        if text.isEmpty { return }
        guard let type = ProcessingOptions.ResizingType(rawValue: text) else {
            throw .badRequest("option '\(segment)': resizing type '\(text)' is not fit, fill, fill-down, force or auto")
        }
        options.resizingType = type
    }

    /// `width:height:enlarge:extend`, each optional.
    private static func setSize(_ args: [String], _ options: inout ProcessingOptions, _ segment: String) throws(ServeError) {
        if args.count > 0, !args[0].isEmpty { options.width = try dimension(args[0], segment) }
        if args.count > 1, !args[1].isEmpty { options.height = try dimension(args[1], segment) }
        if args.count > 2, !args[2].isEmpty { options.enlarge = try flag(args[2], segment) }
        if args.count > 3, !args[3].isEmpty, try flag(args[3], segment) {
            throw .badRequest("option '\(segment)': extend is not supported")
        }
    }

    private static func dimension(_ text: String, _ segment: String) throws(ServeError) -> Int {
        guard let value = Int(text), (0...16_384).contains(value) else {
            throw .badRequest("option '\(segment)': '\(text)' is not a size in 0...16384")
        }
        return value
    }

    private static func number(_ args: [String], _ index: Int, _ segment: String) throws(ServeError) -> Double? {
        guard index < args.count, !args[index].isEmpty else { return nil }
        guard let value = Double(args[index]), value.isFinite else { throw .badRequest("option '\(segment)': '\(args[index])' is not a number") }
        return value
    }

    /// Go's strconv.ParseBool, which imgproxy uses: 1 t T true TRUE True, 0 f F false FALSE False.
    static func flag(_ text: String, _ segment: String) throws(ServeError) -> Bool {
        switch text {
        case "1", "t", "T", "true", "TRUE", "True": return true
        case "0", "f", "F", "false", "FALSE", "False": return false
        default: throw .badRequest("option '\(segment)': '\(text)' is not a boolean (1/0, true/false)")
        }
    }
}
