/// One line of a feature file, seen as a range of the file's UTF-8 bytes.
///
/// Lines end at `\n`; a `\r` before it stays in the line and is trimmed as
/// white space, as the official parser does. Columns count Unicode scalars.
///
/// A line points into the file's bytes without owning them, so it is only
/// valid while the parser holds the text (inside `String.withUTF8`).
struct GherkinLine {
    /// The bytes of an input: the whole file, or a cell being trimmed.
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The whole file's UTF-8 bytes.
    let bytes: Bytes
    /// The index of the line's first byte.
    let start: Int
    /// The index just past the line's last byte (its `\n` excluded).
    let end: Int
    /// The index of the first byte after the leading white space.
    let textStart: Int
    /// The number of leading white-space characters.
    let indent: Int
    /// The line number, counted from 1.
    let number: Int

    /// Creates a line from the range `start..<end` of `bytes`.
    init(bytes: Bytes, start: Int, end: Int, number: Int) {
        self.bytes = bytes
        self.start = start
        self.end = end
        self.number = number
        var index = start
        var indent = 0
        while index < end {
            let width = GherkinLine.whitespaceWidth(bytes, at: index, end: end)
            if width == 0 { break }
            index += width
            indent += 1
        }
        textStart = index
        self.indent = indent
    }

    /// Whether the line holds only white space.
    var isEmpty: Bool { textStart == end }

    /// Whether the text after the indentation starts with `prefix`.
    func starts(with prefix: [UInt8]) -> Bool {
        guard end - textStart >= prefix.count else { return false }
        var index = textStart
        for byte in prefix {
            if bytes[index] != byte { return false }
            index += 1
        }
        return true
    }

    /// Whether the line contains the byte `byte`.
    func contains(_ byte: UInt8) -> Bool {
        var index = start
        while index < end {
            if bytes[index] == byte { return true }
            index += 1
        }
        return false
    }

    /// Whether the text after the indentation starts with the ASCII byte `byte`.
    func starts(with byte: UInt8) -> Bool { textStart < end && bytes[textStart] == byte }

    /// Returns the text after the indentation and `count` more bytes, trimmed.
    func restTrimmed(after count: Int) -> String {
        let from = min(textStart + count, end)
        return string(trimming: from, end)
    }

    /// Returns the line's text with `indentToRemove` leading characters
    /// removed, or with all leading white space removed when that is more
    /// than the line's indentation (or negative); trailing `\r`s are dropped.
    func text(removingIndent indentToRemove: Int) -> String {
        var from = textStart
        if indentToRemove >= 0 && indentToRemove <= indent {
            from = start
            for _ in 0..<indentToRemove {
                from += GherkinLine.whitespaceWidth(bytes, at: from, end: end)
            }
        }
        var to = end
        while to > from && bytes[to - 1] == 0x0D { to -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    /// The text after the indentation, trimmed at both ends.
    var trimmedText: String { string(trimming: textStart, end) }

    /// Makes a string of `from..<to` without white space at either end.
    func string(trimming from: Int, _ to: Int) -> String {
        let to = GherkinLine.trimEnd(bytes, from: from, to: to)
        var from = from
        while from < to {
            let width = GherkinLine.whitespaceWidth(bytes, at: from, end: to)
            if width == 0 { break }
            from += width
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    /// Counts the Unicode scalars in `from..<to`.
    func columns(_ from: Int, _ to: Int) -> Int {
        var count = 0
        var index = from
        while index < to {
            if bytes[index] & 0xC0 != 0x80 { count += 1 }
            index += 1
        }
        return count
    }

    /// Returns the byte width of the white-space character at `index`, or 0.
    ///
    /// White space is what Python's `str.isspace` accepts, as the reference
    /// parser uses it: ASCII blanks, U+001C–U+001F, U+0085, U+00A0, U+1680,
    /// U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000.
    @inline(__always)
    static func whitespaceWidth(_ bytes: Bytes, at index: Int, end: Int) -> Int {
        let byte = bytes[index]
        if byte < 0x80 {
            return byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) || (byte >= 0x1C && byte <= 0x1F) ? 1 : 0
        }
        switch byte {
        case 0xC2:
            guard index + 1 < end else { return 0 }
            let next = bytes[index + 1]
            return next == 0x85 || next == 0xA0 ? 2 : 0
        case 0xE1:
            guard index + 2 < end else { return 0 }
            return bytes[index + 1] == 0x9A && bytes[index + 2] == 0x80 ? 3 : 0
        case 0xE2:
            guard index + 2 < end else { return 0 }
            let (second, third) = (bytes[index + 1], bytes[index + 2])
            if second == 0x80 {
                return third <= 0x8A || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
            }
            return second == 0x81 && third == 0x9F ? 3 : 0
        case 0xE3:
            guard index + 2 < end else { return 0 }
            return bytes[index + 1] == 0x80 && bytes[index + 2] == 0x80 ? 3 : 0
        default:
            return 0
        }
    }

    /// Returns the end of `from..<to` once trailing white space is removed.
    static func trimEnd(_ bytes: Bytes, from: Int, to: Int) -> Int {
        var to = to
        while to > from {
            // Step back to the start of the last character.
            var start = to - 1
            while start > from && bytes[start] & 0xC0 == 0x80 && to - start < 4 { start -= 1 }
            let width = whitespaceWidth(bytes, at: start, end: to)
            if width == 0 || start + width != to { break }
            to = start
        }
        return to
    }
}
