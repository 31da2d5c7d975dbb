/// Formats a story file: each line indented by what it is (two blanks a
/// level), data and examples tables aligned, doc strings moved with their
/// fences, trailing blanks removed. Descriptions keep their indentation.
enum StoryFormatter {
    /// The formatted text of the lines.
    static func format(_ outline: StoryOutline, isFeature: Bool) -> String {
        let lines = outline.lines
        let kinds = outline.kinds
        var out: [String] = Array(repeating: "", count: lines.count)
        var indents: [Int?] = Array(repeating: nil, count: lines.count)
        var ruleOpen = false
        var section = 0  // The indentation of the current scenario, background or story.
        var tableIndent = 0
        var fenceShift = 0
        var isInDocString = false
        for (index, kind) in kinds.enumerated() {
            let line = lines[index]
            let current = line.prefix { $0 == " " || $0 == "\t" }.count
            switch kind {
            case .title(let title, _, _):
                switch title {
                case .feature: indents[index] = 0; ruleOpen = false
                case .rule: indents[index] = 2; ruleOpen = true
                case .background, .scenario: section = ruleOpen ? 4 : 2; indents[index] = section
                case .examples: indents[index] = section + 2; tableIndent = section + 4
                case .story: section = 0; indents[index] = 0
                }
            case .step:
                indents[index] = section + 2
                tableIndent = section + 4
            case .tableRow: indents[index] = tableIndent
            case .docFence:
                // An opening fence sets how far its content moves; a closing one ends it.
                if !isInDocString { fenceShift = (section + 4) - current }
                isInDocString.toggle()
                indents[index] = section + 4
            case .docContent:
                let shift = fenceShift
                out[index] = shift >= 0 ? String(repeating: " ", count: shift) + line : String(line.dropFirst(min(-shift, current)))
                continue
            case .blank, .comment, .language, .tags, .other: break
            }
            if !isFeature, case .step = kind { indents[index] = 2 }
        }
        // Tags and comments take the indentation of the line they stand above.
        var next = 0
        for index in stride(from: lines.count - 1, through: 0, by: -1) {
            switch kinds[index] {
            case .tags, .comment: indents[index] = next
            case .blank, .other, .language, .docContent: break
            default: next = indents[index] ?? next
            }
        }
        for (index, line) in lines.enumerated() where kinds[index] != .docContent {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let indent = indents[index], !trimmed.isEmpty {
                out[index] = String(repeating: " ", count: indent) + trimmed
            } else {
                out[index] = trimmed.isEmpty ? "" : String(line.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            }
        }
        alignTables(&out, kinds: kinds)
        return out.joined(separator: "\n")
    }

    /// Pads the cells of each run of table rows to their column's width.
    private static func alignTables(_ lines: inout [String], kinds: [StoryOutline.Kind]) {
        var index = 0
        while index < lines.count {
            guard kinds[index] == .tableRow else { index += 1; continue }
            var end = index
            while end < lines.count, kinds[end] == .tableRow { end += 1 }
            let rows = lines[index..<end].map(cells)
            var widths: [Int] = []
            for row in rows {
                for (column, cell) in row.enumerated() {
                    if column == widths.count { widths.append(0) }
                    widths[column] = max(widths[column], cell.count)
                }
            }
            for (offset, row) in rows.enumerated() {
                let indent = lines[index + offset].prefix { $0 == " " }
                let padded = row.enumerated().map { column, cell in
                    cell + String(repeating: " ", count: widths[column] - cell.count)
                }
                lines[index + offset] = String(indent) + "| " + padded.joined(separator: " | ") + " |"
            }
            index = end
        }
    }

    /// The cells of a table row, as written (escapes kept), blanks around each removed.
    private static func cells(_ line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var characters = line.trimmingCharacters(in: .whitespaces).dropFirst().makeIterator()
        var sawEnd = false
        while let character = characters.next() {
            if character == "\\", let escaped = characters.next() {
                current.append(character)
                current.append(escaped)
            } else if character == "|" {
                cells.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                sawEnd = true
            } else {
                current.append(character)
                sawEnd = false
            }
        }
        let rest = current.trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty || !sawEnd { if !rest.isEmpty { cells.append(rest) } }
        return cells
    }
}
