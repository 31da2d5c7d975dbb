/// Gherkin in Markdown (`.feature.md`), as the official parsers read it
/// (their `GherkinInMarkdownTokenMatcher`): the same grammar, other lines.
///
/// - A title is a Markdown heading: `# Feature: …`, `## Rule: …`,
///   `### Scenario: …`, `#### Examples: …` (one to six `#` and a blank).
///   The first line that is no tag line is the feature, heading or not.
/// - A step is a bullet: `* Given …`, `- When …`, `+ Then …` (not `* `
///   alone as a keyword).
/// - A table row is indented two to five blanks; a row of dashes (`| --- |`,
///   Markdown's header separator) is a comment. Tables that are not
///   indented are prose.
/// - A doc string is fenced with three or more backticks.
/// - Tags are written in code spans: `` `@smoke` ``.
/// - Any other line is blank, except inside a description or doc string:
///   prose between the headings is left out. There is no `# language:`.
extension GherkinTokenMatcher {
    /// ``match(_:_:lineNumber:)`` for a Markdown file (`line` is not nil).
    mutating func matchMarkdown(_ kind: GherkinToken.Kind, _ line: GherkinLine) -> GherkinToken? {
        switch kind {
        case .eof, .language: return nil
        case .empty:
            guard line.isEmpty || !isMarkdownToken(line) else { return nil }
            return GherkinToken(kind: .empty, line: line.number, column: line.indent + 1)
        case .comment:
            guard line.starts(with: UInt8(ascii: "|")), Self.isSeparatorRow(line) else { return nil }
            return GherkinToken(kind: .comment, line: line.number, column: 1, text: line.text(removingIndent: 0))
        case .tagLine:
            let tags = Self.markdownTags(line)
            return tags.isEmpty ? nil : GherkinToken(kind: .tagLine, line: line.number, column: line.indent + 1, items: tags)
        case .featureLine:
            guard !matchedFeatureLine else { return nil }
            matchedFeatureLine = true
            // Any first line is the feature's, a heading or not.
            return heading(.featureLine, line, dialect.featureKeywords)
                ?? GherkinToken(kind: .featureLine, line: line.number, column: line.indent + 1, text: line.trimmedText)
        case .ruleLine, .backgroundLine, .scenarioLine, .examplesLine:
            return heading(kind, line, titleKeywords(kind))
        case .stepLine:
            return bulletStep(line)
        case .docStringSeparator:
            return markdownFence(line)
        case .tableRow:
            guard (2...5).contains(line.indent), line.starts(with: UInt8(ascii: "|")), !Self.isSeparatorRow(line) else { return nil }
            return GherkinToken(kind: .tableRow, line: line.number, column: line.indent + 1, cells: line.tableCells)
        case .other:
            return GherkinToken(kind: .other, line: line.number, column: 1, text: line.text(removingIndent: indentToRemove))
        }
    }

    /// Whether a line is any token but a blank line or prose (a Markdown
    /// line that is none of them counts as blank).
    private func isMarkdownToken(_ line: GherkinLine) -> Bool {
        if !Self.markdownTags(line).isEmpty || !matchedFeatureLine { return true }
        for kind: GherkinToken.Kind in [.scenarioLine, .backgroundLine, .examplesLine, .ruleLine]
        where heading(kind, line, titleKeywords(kind)) != nil {
            return true
        }
        if line.starts(with: UInt8(ascii: "|")) && ((2...5).contains(line.indent) || Self.isSeparatorRow(line)) { return true }
        if fenceLength(line) != nil { return true }
        return bulletStep(line) != nil
    }

    /// Whether a line is a Markdown title of `kind`, without making its token.
    func isMarkdownTitle(_ kind: GherkinToken.Kind, _ line: GherkinLine) -> Bool {
        heading(kind, line, titleKeywords(kind)) != nil
    }

    private func titleKeywords(_ kind: GherkinToken.Kind) -> [GherkinDialect.TitleKeyword] {
        switch kind {
        case .featureLine: dialect.featureKeywords
        case .ruleLine: dialect.ruleKeywords
        case .backgroundLine: dialect.backgroundKeywords
        case .scenarioLine: dialect.scenarioKeywords
        case .examplesLine: dialect.examplesKeywords
        default: []
        }
    }

    /// `#`…`######`, one blank, a keyword and its colon: the token, its
    /// column the keyword's.
    private func heading(_ kind: GherkinToken.Kind, _ line: GherkinLine, _ keywords: [GherkinDialect.TitleKeyword]) -> GherkinToken? {
        let bytes = line.bytes
        let end = GherkinLine.trimEnd(bytes, from: line.textStart, to: line.end)
        var index = line.textStart
        while index < end, bytes[index] == UInt8(ascii: "#") { index += 1 }
        let hashes = index - line.textStart
        guard (1...6).contains(hashes), index < end else { return nil }
        let blank = GherkinLine.whitespaceWidth(bytes, at: index, end: end)
        guard blank > 0 else { return nil }
        index += blank
        for keyword in keywords where Self.has(keyword.bytesWithColon, in: bytes, at: index, end: end) {
            return GherkinToken(
                kind: kind, line: line.number, column: line.indent + hashes + 2, keyword: keyword.keyword,
                text: line.string(trimming: index + keyword.bytesWithColon.count, end))
        }
        return nil
    }

    /// `*`, `+` or `-`, blanks, and a step keyword other than `* `.
    private func bulletStep(_ line: GherkinLine) -> GherkinToken? {
        let bytes = line.bytes
        let end = GherkinLine.trimEnd(bytes, from: line.textStart, to: line.end)
        var index = line.textStart
        guard index < end, [UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[index]) else { return nil }
        index += 1
        var prefix = 1
        while index < end {
            let width = GherkinLine.whitespaceWidth(bytes, at: index, end: end)
            if width == 0 { break }
            index += width
            prefix += 1
        }
        let keywords = dialect.stepKeywords
        for keyword in keywords where keyword.keyword != "* " && Self.has(keyword.bytes, in: bytes, at: index, end: line.end) {
            return GherkinToken(
                kind: .stepLine, line: line.number, column: line.indent + prefix + 1, keyword: keyword.keyword,
                keywordType: keyword.type, text: line.string(trimming: min(index + keyword.bytes.count, end), end))
        }
        return nil
    }

    /// A fence of three or more backticks that opens a doc string (its
    /// media type after it), or the same fence alone that closes it.
    private mutating func markdownFence(_ line: GherkinLine) -> GherkinToken? {
        guard let length = fenceLength(line) else { return nil }
        let fence = String(repeating: "`", count: length)
        if openFence != nil {
            openFence = nil
            indentToRemove = 0
            return GherkinToken(kind: .docStringSeparator, line: line.number, column: line.indent + 1, keyword: fence)
        }
        openFence = Array(fence.utf8)
        indentToRemove = line.indent
        let end = GherkinLine.trimEnd(line.bytes, from: line.textStart, to: line.end)
        let mediaType = String(decoding: UnsafeBufferPointer(rebasing: line.bytes[(line.textStart + length)..<end]), as: UTF8.self)
        return GherkinToken(kind: .docStringSeparator, line: line.number, column: line.indent + 1, keyword: fence, text: mediaType)
    }

    /// The length of the line's fence: any run of three or more backticks
    /// opens a doc string; only the open one, alone on its line, closes it.
    private func fenceLength(_ line: GherkinLine) -> Int? {
        let bytes = line.bytes
        let end = GherkinLine.trimEnd(bytes, from: line.textStart, to: line.end)
        var index = line.textStart
        while index < end, bytes[index] == UInt8(ascii: "`") { index += 1 }
        let length = index - line.textStart
        if let openFence { return length == openFence.count && index == end ? length : nil }
        return length >= 3 ? length : nil
    }

    /// Whether a table row is Markdown's header separator: a cell of
    /// dashes, with a colon at either end or none (`---`, `:--`, `--:`).
    private static func isSeparatorRow(_ line: GherkinLine) -> Bool {
        line.tableCells.contains { cell in
            var text = Substring(cell)
            if text.hasPrefix(":") { text = text.dropFirst() }
            if text.hasSuffix(":") { text = text.dropLast() }
            return !text.isEmpty && text.allSatisfy { $0 == "-" }
        }
    }

    /// The tags written in code spans (`` `@tag` ``), anywhere in the line.
    private static func markdownTags(_ line: GherkinLine) -> [GherkinLine.Item] {
        let bytes = line.bytes
        let end = GherkinLine.trimEnd(bytes, from: line.textStart, to: line.end)
        var items: [GherkinLine.Item] = []
        var index = line.textStart
        while index + 2 < end {
            guard bytes[index] == UInt8(ascii: "`"), bytes[index + 1] == UInt8(ascii: "@") else {
                index += 1
                continue
            }
            var close = index + 2
            while close < end, bytes[close] != UInt8(ascii: "`") { close += 1 }
            guard close < end, close > index + 2 else {
                index += 1
                continue
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<close]), as: UTF8.self)
            items.append(GherkinLine.Item(column: line.indent + line.columns(line.textStart, index) + 2, text: text))
            index = close + 1
        }
        return items
    }

    /// Whether `word` is at `index` of `bytes`, before `end`.
    private static func has(_ word: [UInt8], in bytes: GherkinLine.Bytes, at index: Int, end: Int) -> Bool {
        guard end - index >= word.count else { return false }
        for offset in word.indices where bytes[index + offset] != word[offset] { return false }
        return true
    }
}
