/// A splitter of a Cucumber expression into tokens, as the official
/// tokenizer does.
///
/// Consecutive text or whitespace code points make one token; each symbol is
/// a token of its own. A backslash makes the next code point text, and only
/// `{`, `}`, `(`, `)`, `\`, `/` and whitespace may be escaped.
struct CucumberExpressionTokenizer {
    /// The expression being split.
    let expression: String

    /// Splits the expression into tokens, from start of line to end of line.
    ///
    /// - Throws: ``CucumberExpressionError`` when a character that can't be
    ///   escaped is escaped, or when the expression ends with a backslash.
    func tokenize() throws(CucumberExpressionError) -> [CucumberExpressionToken] {
        let scalars = Array(expression.unicodeScalars)
        var tokens: [CucumberExpressionToken] = []
        var buffer = String.UnicodeScalarView()
        var bufferCount = 0
        var previousKind = CucumberExpressionToken.Kind.startOfLine
        var treatAsText = false
        var escaped = 0
        var bufferStart = 0

        func flush(as kind: CucumberExpressionToken.Kind) -> CucumberExpressionToken {
            var escapes = 0
            if kind == .text {
                escapes = escaped
                escaped = 0
            }
            let end = bufferStart + bufferCount + escapes
            let token = CucumberExpressionToken(
                kind: kind, text: String(buffer), start: bufferStart, end: end)
            buffer = String.UnicodeScalarView()
            bufferCount = 0
            bufferStart = end
            return token
        }

        if scalars.isEmpty {
            tokens.append(.init(kind: .startOfLine, text: "", start: 0, end: 0))
        }
        for scalar in scalars {
            if !treatAsText && scalar == CucumberExpressionToken.escapeCharacter {
                escaped += 1
                treatAsText = true
                continue
            }
            let kind: CucumberExpressionToken.Kind
            if treatAsText {
                guard CucumberExpressionToken.canEscape(scalar) else {
                    throw .init(
                        .cannotEscape(index: bufferStart + bufferCount + escaped),
                        in: expression)
                }
                kind = .text
            } else {
                kind = .of(scalar)
            }
            treatAsText = false
            if kind != previousKind || (kind != .whiteSpace && kind != .text) {
                tokens.append(flush(as: previousKind))
            }
            previousKind = kind
            buffer.append(scalar)
            bufferCount += 1
        }
        if bufferCount > 0 {
            tokens.append(flush(as: previousKind))
        }
        if treatAsText {
            throw .init(.endOfLineCannotBeEscaped(index: scalars.count - 1), in: expression)
        }
        tokens.append(
            .init(kind: .endOfLine, text: "", start: scalars.count, end: scalars.count))
        return tokens
    }
}
