/// A small XML reader for S3's answers (ListObjectsV2, ListMultipartUploads, InitiateMultipartUpload,
/// CompleteMultipartUpload, Error): elements, their text, the five predefined entities and numeric
/// character references. Attributes are skipped, comments, processing instructions and the
/// declaration ignored; no DTDs, no namespaces beyond keeping the local name. FoundationXML is not used:
/// it needs libxml2 at run time, and these documents need nothing it adds.
struct S3XML: Sendable, Equatable {
    /// The element's local name (`Contents`, not `s3:Contents`).
    var name: String
    /// Child elements in document order.
    var children: [S3XML] = []
    /// The text directly inside the element, entities decoded.
    var text = ""

    /// The first child named `name`.
    func child(_ name: String) -> S3XML? { children.first { $0.name == name } }
    /// Every child named `name`.
    func children(_ name: String) -> [S3XML] { children.filter { $0.name == name } }
    /// The text of the first child named `name`.
    func value(_ name: String) -> String? { child(name)?.text }

    struct ParseError: Error, Equatable { var reason: String }

    /// Parses a document and returns its root element.
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> S3XML {
        var reader = Reader(bytes: bytes)
        return try reader.document()
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        mutating func document() throws(ParseError) -> S3XML {
            var stack: [S3XML] = []
            while i < bytes.count {
                if bytes[i] != UInt8(ascii: "<") {
                    let start = i
                    while i < bytes.count && bytes[i] != UInt8(ascii: "<") { i += 1 }
                    if !stack.isEmpty { stack[stack.count - 1].text += try decode(bytes[start..<i]) }
                    continue
                }
                if starts("<?") { try skip(past: "?>"); continue }
                if starts("<!--") { try skip(past: "-->"); continue }
                if starts("<![CDATA[") {
                    i += 9
                    let start = i
                    try skip(past: "]]>")
                    if !stack.isEmpty { stack[stack.count - 1].text += String(decoding: bytes[start..<(i - 3)], as: UTF8.self) }
                    continue
                }
                if starts("<!") { try skip(past: ">"); continue }
                let closing = starts("</")
                i += closing ? 2 : 1
                let nameStart = i
                while i < bytes.count, !" \t\r\n/>".utf8.contains(bytes[i]) { i += 1 }
                let qualified = String(decoding: bytes[nameStart..<i], as: UTF8.self)
                let name = String(qualified.split(separator: ":").last ?? "")
                guard !name.isEmpty else { throw ParseError(reason: "an element without a name at byte \(nameStart)") }
                // Attributes: skipped up to the tag's end, minding quoted '>'.
                var quote: UInt8?
                while i < bytes.count, quote != nil || bytes[i] != UInt8(ascii: ">") {
                    if let q = quote { if bytes[i] == q { quote = nil } } else if bytes[i] == 34 || bytes[i] == 39 { quote = bytes[i] }
                    i += 1
                }
                guard i < bytes.count else { throw ParseError(reason: "the tag <\(qualified)> is not closed") }
                let selfClosing = bytes[i - 1] == UInt8(ascii: "/")
                i += 1
                if closing {
                    guard let open = stack.last, open.name == name else {
                        throw ParseError(reason: "</\(qualified)> closes \(stack.last.map { "<\($0.name)>" } ?? "nothing")")
                    }
                    stack.removeLast()
                    if stack.isEmpty { return open }
                    stack[stack.count - 1].children.append(open)
                } else if selfClosing {
                    if stack.isEmpty { return S3XML(name: name) }
                    stack[stack.count - 1].children.append(S3XML(name: name))
                } else {
                    stack.append(S3XML(name: name))
                }
            }
            throw ParseError(reason: stack.isEmpty ? "no root element" : "the document ends inside <\(stack.last!.name)>")
        }

        func starts(_ text: String) -> Bool {
            let t = Array(text.utf8)
            return i + t.count <= bytes.count && bytes[i..<(i + t.count)].elementsEqual(t)
        }

        mutating func skip(past end: String) throws(ParseError) {
            let e = Array(end.utf8)
            while i + e.count <= bytes.count {
                if bytes[i..<(i + e.count)].elementsEqual(e) { i += e.count; return }
                i += 1
            }
            throw ParseError(reason: "'\(end)' missing")
        }

        func decode(_ raw: ArraySlice<UInt8>) throws(ParseError) -> String {
            let text = String(decoding: raw, as: UTF8.self)
            guard text.contains("&") else { return text }
            var out = ""
            var rest = Substring(text)
            while let amp = rest.firstIndex(of: "&") {
                out += rest[..<amp]
                guard let semi = rest[amp...].firstIndex(of: ";") else { throw ParseError(reason: "an unterminated entity") }
                let entity = rest[rest.index(after: amp)..<semi]
                switch entity {
                case "amp": out += "&"
                case "lt": out += "<"
                case "gt": out += ">"
                case "quot": out += "\""
                case "apos": out += "'"
                default:
                    let number = entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16)
                        : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                    guard let number, let scalar = Unicode.Scalar(number) else {
                        throw ParseError(reason: "the unknown entity &\(entity);")
                    }
                    out.unicodeScalars.append(scalar)
                }
                rest = rest[rest.index(after: semi)...]
            }
            return out + rest
        }
    }
}
