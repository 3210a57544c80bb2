import Foundation

/// Decodes one array element without ever failing, keeping the error for the report.
///
/// JSONDecoder's unkeyed container only advances past an element when that element
/// decodes successfully; wrapping every element in a type whose `init` cannot throw
/// keeps the cursor moving past a bad item so the items after it still decode.
struct LossyElement<Wrapped: Decodable>: Decodable {
    let result: Result<Wrapped, any Error>

    init(from decoder: any Decoder) {
        result = Result { try Wrapped(from: decoder) }
    }
}

/// Splits a lossily decoded array into the good items and the skipped ones.
func partition<T>(_ elements: [LossyElement<T>]) -> (items: [T], skipped: [SkippedItem]) {
    var items: [T] = []
    var skipped: [SkippedItem] = []
    for (index, element) in elements.enumerated() {
        switch element.result {
        case let .success(item): items.append(item)
        case let .failure(error): skipped.append(SkippedItem(index: index, reason: describe(error)))
        }
    }
    return (items, skipped)
}

/// A one-line reason for a decoding failure that names the field by its JSON path.
func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return String(describing: error) }
    func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
        let keys = codingPath + (key.map { [$0] } ?? [])
        let text = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return text.isEmpty ? "item" : text
    }
    switch error {
    case let .keyNotFound(key, context):
        return "missing field '\(path(context.codingPath, key))'"
    case let .typeMismatch(type, context):
        return "wrong type at '\(path(context.codingPath))': expected \(type)"
    case let .valueNotFound(type, context):
        return "null at '\(path(context.codingPath))': expected \(type)"
    case let .dataCorrupted(context):
        return "invalid value at '\(path(context.codingPath))': \(context.debugDescription)"
    @unknown default:
        return String(describing: error)
    }
}

extension KeyedDecodingContainer {
    /// An optional field that is really optional: absent, `null` or wrong-typed all give nil.
    ///
    /// Only for fields whose absence is harmless; required fields use `decode` so a
    /// wrong type skips the item instead of silently inventing a value.
    func lenient<T: Decodable>(_ type: T.Type, forKey key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
