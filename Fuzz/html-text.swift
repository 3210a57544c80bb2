// libFuzzer target: reducing a service's HTML snippet to text and a link (HTMLText, as Commons
// extmetadata and Flickr descriptions are read), and decoding character references on their own.
//
// Invariants: the reduction is deterministic; its text holds no HTML whitespace but single spaces
// between words (none at either end); a link is never empty; decoding never makes text longer (every
// reference is at least as long as what it stands for), leaves text without `&` as it is, and undoes
// the gallery's own escaping (HTMLEscaping.escape, controls and bidi marks aside, which it replaces).
@testable import PhotoGallery
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let html = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)

    let reduced = HTMLText.reduce(html)
    let again = HTMLText.reduce(html)
    require(reduced.text == again.text && reduced.link == again.link, "reduce is not deterministic")
    let htmlSpace: Set<Unicode.Scalar> = [" ", "\t", "\n", "\u{0C}", "\r"]
    let scalars = Array(reduced.text.unicodeScalars)
    require(!scalars.contains { $0 != " " && htmlSpace.contains($0) }, "HTML whitespace other than a space left in the text")
    require(scalars.first != " " && scalars.last != " ", "the text starts or ends with a space")
    require(!zip(scalars, scalars.dropFirst()).contains { $0 == " " && $1 == " " }, "two spaces in a row")
    require(reduced.link.map { !$0.isEmpty } ?? true, "an empty link")

    for inAttribute in [false, true] {
        let decoded = HTMLCharacterReferences.decode(html, inAttribute: inAttribute)
        require(decoded.unicodeScalars.count <= html.unicodeScalars.count, "decoding made the text longer")
        if !html.contains("&") { require(decoded.unicodeScalars.elementsEqual(html.unicodeScalars), "text without & changed") }
    }

    let expected = String(String.UnicodeScalarView(html.unicodeScalars.map { scalar -> Unicode.Scalar in
        switch scalar {
        case "\t", "\n", "\r": scalar
        case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}": "\u{FFFD}"
        default: scalar
        }
    }))
    let roundTrip = HTMLCharacterReferences.decode(HTMLEscaping.escape(html))
    require(roundTrip.unicodeScalars.elementsEqual(expected.unicodeScalars), "decoding does not undo the gallery's escaping")
    return 0
}
