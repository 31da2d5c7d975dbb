extension String {
    /// The text with `&`, `<`, `>`, `"` and `'` escaped for HTML and XML, and
    /// control characters HTML forbids (all but tab and line ends) removed.
    public var htmlEscaped: String {
        var text = self
        let isPlain = text.withUTF8 { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && $0 != 0x22 && $0 != 0x27 }
        }
        if isPlain { return self }
        var out = ""
        out.reserveCapacity(utf8.count)
        // Scalar by scalar, as XML and browsers read it: a Character
        // would take `"` or `&` with a combining mark after it as one
        // character that is neither, and leave the quote unescaped.
        for scalar in unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case let s where !String.isLegalInXML(s): continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// The text escaped for XML 1.0 element content or a double-quoted
    /// attribute, with characters XML 1.0 forbids removed.
    ///
    /// In attributes, tabs and line ends become character references so a
    /// parser keeps them instead of normalising them to blanks.
    /// - Parameter isAttribute: Whether the text goes in an attribute value.
    public func xmlEscaped(isAttribute: Bool = false) -> String {
        // Most text needs nothing: printable ASCII without markup.
        var text = self
        let isPlain = text.withUTF8 { bytes in
            bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && ($0 != 0x22 || !isAttribute))
                || ($0 == 0x0A && !isAttribute) }
        }
        if isPlain { return self }
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where isAttribute: out += "&quot;"
            case "\n" where isAttribute: out += "&#10;"
            case "\r": out += "&#13;"
            case "\t" where isAttribute: out += "&#9;"
            case let s where !Self.isLegalInXML(s): continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether XML 1.0 allows the character (`Char` in the specification).
    static func isLegalInXML(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
