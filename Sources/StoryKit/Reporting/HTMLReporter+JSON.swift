/// The run's data on the HTML page: JSON inside `<script type="application/json">`,
/// which the page's script turns into stories as they come on screen.
///
/// A string there must end neither the script element nor the JSON: `<`,
/// `>` and `&` are written as `\u003c`, `\u003e` and `\u0026` (so no
/// `</script>` and no `<!--` can appear, whatever the input), quotes,
/// backslashes and control characters as JSON escapes them, and U+2028 and
/// U+2029 as `\u2028` and `\u2029` (line ends to older JavaScript).
extension [UInt8] {
    /// Appends text as a JSON string that is safe inside a script element.
    mutating func scriptJSON(_ text: String) {
        var text = text
        text.withUTF8 { scriptJSON($0) }
    }

    /// Appends UTF-8 text as a JSON string that is safe inside a script element.
    mutating func scriptJSON(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(UInt8(ascii: "\""))
        scriptEscaped(bytes)
        append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 text escaped as ``scriptJSON(_:)-([UInt8])`` escapes
    /// it, without the quotes.
    mutating func scriptEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Most text needs no escape: one scan, one append.
        if bytes.allSatisfy(Self.isScriptPlain) {
            append(contentsOf: bytes)
            return
        }
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
            let isSeparator = byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9)
            guard isSeparator || Self.needsScriptEscape(byte) else {
                index += 1
                continue
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            if isSeparator {
                literal(bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                index += 3
            } else {
                appendScriptEscape(byte)
                index += 1
            }
            start = index
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
    }

    /// Appends a place as a JSON string `path:line`, the path as reports show it.
    mutating func scriptJSON(_ place: SourceLocation) {
        var text: [UInt8] = []
        place.withDisplayPathUTF8 { text.append(contentsOf: $0) }
        text.append(UInt8(ascii: ":"))
        text.decimal(place.line)
        text.withUnsafeBufferPointer { scriptJSON($0) }
    }

    /// Printable ASCII that a JSON string in a script element keeps as it is.
    @inline(__always)
    private static func isScriptPlain(_ byte: UInt8) -> Bool {
        // `"`, `&`, `<` and `>` as bits of a mask of the bytes below 0x40.
        let specials: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E
        return byte >= 0x20 && byte < 0x7F && byte != 0x5C && (byte >= 0x40 || specials & (1 << UInt64(byte)) == 0)
    }

    @inline(__always)
    private static func needsScriptEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x3C || byte == 0x3E || byte == 0x26
    }

    private mutating func appendScriptEscape(_ byte: UInt8) {
        switch byte {
        case 0x22: literal("\\\"")
        case 0x5C: literal("\\\\")
        case 0x0A: literal("\\n")
        case 0x09: literal("\\t")
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            literal("\\u00")
            append(hex[Int(byte >> 4)])
            append(hex[Int(byte & 0xF)])
        }
    }
}

extension String {
    /// The text without ANSI escape sequences (colours a step logged for a
    /// terminal), for the parts of the page written as HTML.
    var ansiStripped: String {
        guard contains("\u{1B}") else { return self }
        var result = ""
        var scalars = unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                result.unicodeScalars.append(scalar)
                continue
            }
            // ESC [ parameters… final byte (a letter); any other ESC alone is dropped.
            guard let next = scalars.next(), next == "[" else { continue }
            while let part = scalars.next(), !(part.properties.isAlphabetic && part.isASCII) {}
        }
        return result
    }
}
