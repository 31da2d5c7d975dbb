/// Decides whether a line is a token of a given kind, in the current dialect.
///
/// The matcher has a little state: the dialect (changed by `# language:`)
/// and, inside a doc string, its fence and the indentation to remove.
struct GherkinTokenMatcher {
    /// The dialect that keywords are matched in.
    private(set) var dialect: GherkinDialect = .english
    /// The fence of the open doc string, if one is open.
    var openFence: [UInt8]?
    /// The indentation of the open doc string's fence.
    var indentToRemove = 0
    /// Whether the file is Gherkin in Markdown (`.feature.md`; see
    /// ``matchMarkdown(_:_:)``).
    var isMarkdown = false
    /// Whether a Markdown file's feature line was found (any first line is it).
    var matchedFeatureLine = false

    private static let quotesFence: [UInt8] = Array(#"""""#.utf8)
    private static let backticksFence: [UInt8] = Array("```".utf8)
    private static let languageWord: [UInt8] = Array("language".utf8)

    /// Returns the token `line` makes as `kind`, or `nil` when it isn't one.
    ///
    /// - Parameters:
    ///   - kind: The kind of token to try.
    ///   - line: The line, or `nil` at the end of the file.
    ///   - lineNumber: The line number (the end of file has one too).
    /// - Throws: ``GherkinError`` for a tag with white space in it or an
    ///   unknown language; the line is then not a token of that kind.
    mutating func match(
        _ kind: GherkinToken.Kind, _ line: GherkinLine?, lineNumber: Int
    ) throws(GherkinError) -> GherkinToken? {
        guard let line else {
            return kind == .eof ? GherkinToken(kind: .eof, line: lineNumber, column: 0) : nil
        }
        if isMarkdown { return matchMarkdown(kind, line) }
        let column = line.indent + 1
        switch kind {
        case .eof:
            return nil
        case .empty:
            return line.isEmpty ? GherkinToken(kind: .empty, line: line.number, column: 1) : nil
        case .comment:
            guard line.starts(with: UInt8(ascii: "#")) else { return nil }
            return GherkinToken(
                kind: .comment, line: line.number, column: 1, text: line.text(removingIndent: 0))
        case .tagLine:
            guard line.starts(with: UInt8(ascii: "@")) else { return nil }
            return GherkinToken(kind: .tagLine, line: line.number, column: column, items: try line.tags())
        case .featureLine:
            return title(.featureLine, line, dialect.featureKeywords)
        case .ruleLine:
            return title(.ruleLine, line, dialect.ruleKeywords)
        case .backgroundLine:
            return title(.backgroundLine, line, dialect.backgroundKeywords)
        case .scenarioLine:
            return title(.scenarioLine, line, dialect.scenarioKeywords)
        case .examplesLine:
            return title(.examplesLine, line, dialect.examplesKeywords)
        case .stepLine:
            guard line.textStart < line.end else { return nil }
            let first = line.bytes[line.textStart]
            // By index, and first bytes first: no keyword is copied.
            let keywords = dialect.stepKeywords
            for index in keywords.indices where keywords[index].first == first && line.starts(with: keywords[index].bytes) {
                return GherkinToken(
                    kind: .stepLine, line: line.number, column: column, keyword: keywords[index].keyword,
                    keywordType: keywords[index].type, text: line.restTrimmed(after: keywords[index].bytes.count))
            }
            return nil
        case .docStringSeparator:
            return docStringSeparator(line)
        case .tableRow:
            guard line.starts(with: UInt8(ascii: "|")) else { return nil }
            return GherkinToken(kind: .tableRow, line: line.number, column: column, cells: line.tableCells)
        case .language:
            guard let code = Self.languageCode(line) else { return nil }
            guard let dialect = GherkinDialect.named(code) else {
                throw GherkinError(line: line.number, column: column, message: "Language not supported: \(code)",
                    reason: .unknownLanguage)
            }
            self.dialect = dialect
            return GherkinToken(kind: .language, line: line.number, column: column, text: code)
        case .other:
            var text = line.text(removingIndent: indentToRemove)
            if let openFence, line.contains(UInt8(ascii: "\\")) {
                text = openFence == Self.quotesFence
                    ? text.replacingAll(#"\"\"\""#, with: #"""""#)
                    : text.replacingAll(#"\`\`\`"#, with: "```")
            }
            return GherkinToken(kind: .other, line: line.number, column: 1, text: text)
        }
    }

    /// Whether `line` may be a token of `kind`, judged by its first byte
    /// alone: `false` means it certainly is not, so the parser can pass over
    /// most of a state's candidates without calling ``match(_:_:lineNumber:)``.
    @inline(__always)
    func mayMatch(_ kind: GherkinToken.Kind, _ line: GherkinLine?) -> Bool {
        guard let line else { return kind == .eof }
        if isMarkdown { return true }
        guard line.textStart < line.end else { return kind == .empty || kind == .other }
        let first = line.bytes[line.textStart]
        switch kind {
        case .eof, .empty: return false
        case .comment, .language: return first == UInt8(ascii: "#")
        case .tagLine: return first == UInt8(ascii: "@")
        case .tableRow: return first == UInt8(ascii: "|")
        case .docStringSeparator: return first == UInt8(ascii: "\"") || first == UInt8(ascii: "`")
        case .featureLine, .ruleLine, .backgroundLine, .scenarioLine, .examplesLine:
            return dialect.titleStarts.contains(first)
        case .stepLine: return dialect.stepStarts.contains(first)
        case .other: return true
        }
    }

    /// Whether `line` is a title line of `kind` (`.scenarioLine`,
    /// `.examplesLine`, …), without making its token: for looking ahead.
    func isTitle(_ kind: GherkinToken.Kind, _ line: GherkinLine) -> Bool {
        if isMarkdown { return isMarkdownTitle(kind, line) }
        let keywords: [GherkinDialect.TitleKeyword]
        switch kind {
        case .featureLine: keywords = dialect.featureKeywords
        case .ruleLine: keywords = dialect.ruleKeywords
        case .backgroundLine: keywords = dialect.backgroundKeywords
        case .scenarioLine: keywords = dialect.scenarioKeywords
        case .examplesLine: keywords = dialect.examplesKeywords
        default: return false
        }
        guard line.textStart < line.end, dialect.titleStarts.contains(line.bytes[line.textStart]) else { return false }
        return keywords.contains { line.starts(with: $0.bytesWithColon) }
    }

    /// Matches a line that starts with one of `keywords` and a colon.
    private func title(
        _ kind: GherkinToken.Kind, _ line: GherkinLine, _ keywords: [GherkinDialect.TitleKeyword]
    ) -> GherkinToken? {
        guard line.textStart < line.end, dialect.titleStarts.contains(line.bytes[line.textStart]) else { return nil }
        let first = line.bytes[line.textStart]
        for index in keywords.indices where keywords[index].first == first && line.starts(with: keywords[index].bytesWithColon) {
            return GherkinToken(
                kind: kind, line: line.number, column: line.indent + 1, keyword: keywords[index].keyword,
                text: line.restTrimmed(after: keywords[index].bytesWithColon.count))
        }
        return nil
    }

    /// Matches a doc string fence: either fence opens one, only the same closes it.
    private mutating func docStringSeparator(_ line: GherkinLine) -> GherkinToken? {
        if let fence = openFence {
            guard line.starts(with: fence) else { return nil }
            openFence = nil
            indentToRemove = 0
            return GherkinToken(
                kind: .docStringSeparator, line: line.number, column: line.indent + 1,
                keyword: String(decoding: fence, as: UTF8.self))
        }
        let fence: [UInt8]
        if line.starts(with: Self.quotesFence) {
            fence = Self.quotesFence
        } else if line.starts(with: Self.backticksFence) {
            fence = Self.backticksFence
        } else {
            return nil
        }
        do {
            openFence = fence
            indentToRemove = line.indent
            return GherkinToken(
                kind: .docStringSeparator, line: line.number, column: line.indent + 1,
                keyword: String(decoding: fence, as: UTF8.self), text: line.restTrimmed(after: 3))
        }
    }

    /// Reads `# language: xx` (blanks allowed around each part), or `nil`.
    private static func languageCode(_ line: GherkinLine) -> String? {
        let bytes = line.bytes
        var index = line.textStart
        let end = line.end
        func skipBlanks() {
            while index < end {
                let width = GherkinLine.whitespaceWidth(bytes, at: index, end: end)
                if width == 0 { return }
                index += width
            }
        }
        guard index < end, bytes[index] == UInt8(ascii: "#") else { return nil }
        index += 1
        skipBlanks()
        guard end - index >= languageWord.count, bytes[index..<index + languageWord.count].elementsEqual(languageWord)
        else { return nil }
        index += languageWord.count
        skipBlanks()
        guard index < end, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        skipBlanks()
        let codeStart = index
        while index < end {
            let byte = bytes[index]
            let isCode = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
            if !isCode { break }
            index += 1
        }
        let codeEnd = index
        guard codeEnd > codeStart else { return nil }
        skipBlanks()
        guard index == end else { return nil }
        return String(decoding: bytes[codeStart..<codeEnd], as: UTF8.self)
    }
}
