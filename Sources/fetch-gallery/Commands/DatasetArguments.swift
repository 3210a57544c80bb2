import Foundation

/// img2dataset's command lines, as Python Fire takes them, turned into ours before parsing, so an existing
/// script runs with underscores or dashes: `--url_list x` -> `--url-list x`; `--extract_exif=False`,
/// `--extract-exif False` and `--noextract_exif` -> `--no-extract-exif`; `--resize_only_if_bigger=True` ->
/// `--resize-only-if-bigger`.
enum DatasetArguments {
    static let booleans: Set<String> = ["resize-only-if-bigger", "skip-reencode", "extract-exif", "enable-wandb",
                                        "disable-all-reencoding"]

    static func normalize(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            guard argument.hasPrefix("--"), argument.count > 2 else { out.append(argument); continue }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let eq = name.firstIndex(of: "=") {
                value = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            name = name.replacingOccurrences(of: "_", with: "-")
            if name.hasPrefix("no"), !name.hasPrefix("no-"), booleans.contains(String(name.dropFirst(2))) {
                out.append("--no-" + name.dropFirst(2))
                continue
            }
            if booleans.contains(name) {
                if value == nil, i < arguments.count, let truth = truthValue(arguments[i]) {
                    value = truth ? "true" : "false"
                    i += 1
                }
                let on = value.flatMap(truthValue) ?? true
                out.append(on ? "--" + name : "--no-" + name)
                continue
            }
            out.append("--" + name + (value.map { "=" + $0 } ?? ""))
        }
        return out
    }

    private static func truthValue(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "1", "yes": true
        case "false", "0", "no": false
        default: nil
        }
    }

    /// A list option given as `a,b` or as Python's `["a","b"]` / `['a', 'b']`; `[]` is empty.
    static func list(_ text: String) -> [String] {
        var body = text.trimmingCharacters(in: .whitespaces)
        if body.hasPrefix("["), body.hasSuffix("]") { body = String(body.dropFirst().dropLast()) }
        return body.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }.filter { !$0.isEmpty }
    }
}
