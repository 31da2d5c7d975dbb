/// Text appended to a report's bytes, escaped as it goes: the bytes
/// `String.xmlEscaped` and `String.htmlEscaped` make, without a String per
/// piece of text. ASCII text (nearly all of it) is escaped byte by byte;
/// other text goes through the String functions, so the result is the same.
/// Runs of bytes that need no escape are appended whole.
extension [UInt8] {
    /// Appends text as it is.
    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends text as ``String/xmlEscaped(isAttribute:)`` escapes it.
    mutating func xmlEscaped(_ text: String, isAttribute: Bool = false) {
        var text = text
        let isASCII = text.withUTF8 { bytes in
            // Most text needs no escape: one scan, one append.
            let mask = isAttribute ? Self.xmlAttributeSpecials : Self.xmlSpecials
            if bytes.allSatisfy({ Self.isPlain($0, specials: mask) }) {
                append(contentsOf: bytes)
                return true
            }
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            appendEscaping(bytes) { byte in
                switch byte {
                case 0x26: "&amp;"
                case 0x3C: "&lt;"
                case 0x3E: "&gt;"
                case 0x22 where isAttribute: "&quot;"
                case 0x0A where isAttribute: "&#10;"
                case 0x0D: "&#13;"
                case 0x09 where isAttribute: "&#9;"
                case 0x09, 0x0A, 0x20...: nil
                default: ""  // control characters XML 1.0 forbids
                }
            }
            return true
        }
        if !isASCII { self.text(text.xmlEscaped(isAttribute: isAttribute)) }
    }

    /// Whether a byte is printable ASCII and not one of `specials`: bits
    /// of a mask of the bytes below 0x40 (one shift and test a byte, not a
    /// comparison with each special character).
    @inline(__always)
    private static func isPlain(_ byte: UInt8, specials: UInt64) -> Bool {
        byte >= 0x20 && byte < 0x7F && (byte >= 0x40 || specials & (1 << UInt64(byte)) == 0)
    }

    /// `&`, `<` and `>`, as bits of ``isPlain(_:specials:)``'s mask.
    private static var xmlSpecials: UInt64 { 1 << 0x26 | 1 << 0x3C | 1 << 0x3E }
    /// ``xmlSpecials`` and `"`.
    private static var xmlAttributeSpecials: UInt64 { xmlSpecials | 1 << 0x22 }
    /// ``xmlAttributeSpecials`` and `'`.
    private static var htmlSpecials: UInt64 { xmlAttributeSpecials | 1 << 0x27 }

    /// Appends bytes, each that `escape` names (nil: kept as it is) replaced
    /// by its escape.
    private mutating func appendEscaping(_ bytes: UnsafeBufferPointer<UInt8>, _ escape: (UInt8) -> StaticString?) {
        var start = 0
        for index in 0..<bytes.count {
            guard let replacement = escape(bytes[index]) else { continue }
            append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            literal(replacement)
            start = index + 1
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
    }

    /// Appends text in double quotes, escaped for an XML attribute.
    mutating func xmlAttribute(_ text: String) {
        append(UInt8(ascii: "\""))
        xmlEscaped(text, isAttribute: true)
        append(UInt8(ascii: "\""))
    }

    /// Appends text as ``String/htmlEscaped`` escapes it.
    mutating func htmlEscaped(_ text: String) {
        var text = text
        text.withUTF8 { htmlEscaped($0) }
    }

    /// Appends text in UTF-8 as ``String/htmlEscaped`` escapes it.
    mutating func htmlEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Most text needs no escape: one scan, one append.
        if bytes.allSatisfy({ Self.isPlain($0, specials: Self.htmlSpecials) }) {
            append(contentsOf: bytes)
            return
        }
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            self.text(String(decoding: bytes, as: UTF8.self).htmlEscaped)
            return
        }
        appendEscaping(bytes) { byte in
            switch byte {
            case 0x26: "&amp;"
            case 0x3C: "&lt;"
            case 0x3E: "&gt;"
            case 0x22: "&quot;"
            case 0x27: "&#39;"
            case 0x09, 0x0A, 0x0D, 0x20...: nil
            default: ""  // control characters HTML forbids
            }
        }
    }

    /// Appends a place as `path:line`, escaped as ``htmlEscaped(_:)``
    /// escapes its `displayFileAndLine`.
    mutating func htmlEscaped(_ place: SourceLocation) {
        place.withDisplayPathUTF8 { htmlEscaped($0) }
        append(UInt8(ascii: ":"))
        decimal(place.line)
    }

    /// Appends an integer in decimal.
    mutating func decimal(_ value: Int) {
        JSONValue.writeInteger(Int64(value), into: &self)
    }
}
