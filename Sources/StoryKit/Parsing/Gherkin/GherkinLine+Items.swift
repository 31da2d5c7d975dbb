extension GherkinLine {
    /// A piece of a line with its column: a table cell or a tag.
    struct Item: Sendable {
        /// The column of the item's first character, counted from 1.
        let column: Int
        /// The item's text: a cell with escapes resolved, or a tag with `@`.
        let text: String
    }

    /// The cells of a table row (`| a | b |`), with `\|`, `\\` and `\n`
    /// resolved and blanks around each cell removed.
    ///
    /// Text before the first `|` and after the last one is not a cell; a row
    /// that ends in a backslash therefore loses its last cell.
    var tableCells: [String] {
        let rowEnd = GherkinLine.trimEnd(bytes, from: textStart, to: end)
        var cells: [String] = []
        // A row has at most one cell fewer than it has bars: room for them
        // all at once saves growing the array cell by cell.
        var bars = 0
        for index in textStart..<rowEnd where bytes[index] == UInt8(ascii: "|") { bars += 1 }
        cells.reserveCapacity(max(bars - 1, 0))
        var cellStart = -1
        var hasEscape = false
        var index = textStart
        while index < rowEnd {
            let byte = bytes[index]
            if byte == UInt8(ascii: "|") {
                if cellStart >= 0 {
                    cells.append(makeCell(cellStart, index, hasEscape: hasEscape))
                }
                cellStart = index + 1
                hasEscape = false
                index += 1
            } else if byte == UInt8(ascii: "\\") {
                hasEscape = true
                index += 1
                if index < rowEnd {
                    index += GherkinLine.characterWidth(bytes[index])
                }
            } else {
                index += GherkinLine.characterWidth(byte)
            }
        }
        return cells
    }

    /// Makes a cell from the raw text `from..<to`, resolving escapes and
    /// trimming blanks (but not escaped line feeds).
    private func makeCell(_ from: Int, _ to: Int, hasEscape: Bool) -> String {
        guard hasEscape else { return string(trimming: from, to) }
        var cell: [UInt8] = []
        cell.reserveCapacity(to - from)
        var index = from
        while index < to {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                cell.append(byte)
                index += 1
                continue
            }
            index += 1
            guard index < to else {
                cell.append(byte)
                break
            }
            let next = bytes[index]
            let width = min(GherkinLine.characterWidth(next), to - index)
            if next == UInt8(ascii: "n") {
                cell.append(0x0A)
            } else {
                if next != UInt8(ascii: "|") && next != UInt8(ascii: "\\") { cell.append(byte) }
                cell.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + width]))
            }
            index += width
        }
        return cell.withUnsafeBufferPointer { cell in
            var start = 0
            while start < cell.count && cell[start] != 0x0A {
                let width = GherkinLine.whitespaceWidth(cell, at: start, end: cell.count)
                if width == 0 { break }
                start += width
            }
            var stop = cell.count
            while stop > start {
                var last = stop - 1
                while last > start && cell[last] & 0xC0 == 0x80 { last -= 1 }
                let width = GherkinLine.whitespaceWidth(cell, at: last, end: stop)
                if cell[last] == 0x0A || width == 0 || last + width != stop { break }
                stop = last
            }
            return String(decoding: UnsafeBufferPointer(rebasing: cell[start..<stop]), as: UTF8.self)
        }
    }

    /// The tags on a tag line (`@a @b # comment`), each with its column.
    ///
    /// - Throws: ``GherkinError`` when a tag contains white space.
    func tags() throws(GherkinError) -> [Item] {
        var lineEnd = GherkinLine.trimEnd(bytes, from: textStart, to: end)
        // A comment starts at the first `#` that follows white space.
        var index = textStart
        while index < lineEnd {
            let width = GherkinLine.whitespaceWidth(bytes, at: index, end: lineEnd)
            if width > 0 && index + width < lineEnd && bytes[index + width] == UInt8(ascii: "#") {
                lineEnd = GherkinLine.trimEnd(bytes, from: textStart, to: index)
                break
            }
            index += max(width, 1)
        }
        var items: [Item] = []
        var column = indent + 1
        var itemStart = -1
        index = textStart
        while index <= lineEnd {
            if index == lineEnd || bytes[index] == UInt8(ascii: "@") {
                if itemStart >= 0 {
                    let name = string(trimming: itemStart, index)
                    if name.unicodeScalars.contains(where: { GherkinLine.isWhitespace($0) }) {
                        throw GherkinError(
                            line: number, column: column, message: "A tag may not contain whitespace",
                            reason: .tagWithWhitespace)
                    }
                    items.append(Item(column: column, text: "@" + name))
                    column += columns(itemStart, index) + 1
                }
                itemStart = index + 1
            }
            index += 1
        }
        return items
    }

    /// Returns the UTF-8 length of the character that starts with `byte`.
    @inline(__always)
    static func characterWidth(_ byte: UInt8) -> Int {
        byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
    }

    /// Whether a scalar is white space in the sense of ``whitespaceWidth(_:at:end:)``.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029,
            0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }
}
