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
            if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && ($0 != 0x22 || !isAttribute) }) {
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
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && $0 != 0x22 && $0 != 0x27 }) {
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
