/// A problem found while reading a feature file, with the official
/// parser's wording.
struct GherkinError: Error, Hashable, Sendable {
    /// What went wrong, for the advice a diagnostic gives.
    enum Reason: Hashable, Sendable {
        /// A line that the grammar does not allow where it is.
        case unexpectedLine
        /// The file ended inside something unfinished.
        case unexpectedEnd
        /// A table row with more or fewer cells than the first row.
        case inconsistentCellCount
        /// A tag with white space in it.
        case tagWithWhitespace
        /// A `# language:` header naming no known dialect.
        case unknownLanguage
    }

    /// The line, counted from 1.
    let line: Int
    /// The column, counted from 1; 0 when the problem has no column (end of file).
    let column: Int
    /// The message, without the `(line:column): ` prefix.
    let message: String
    /// What went wrong.
    var reason: Reason = .unexpectedLine

    /// The message as the official parser prints it: `(line:column): message`.
    var fullMessage: String { "(\(line):\(column)): \(message)" }

    /// Makes the error for a token that the parser did not expect.
    static func unexpected(
        _ line: GherkinLine?, lineNumber: Int, expected: [GherkinToken.Kind]
    ) -> GherkinError {
        let names = expected.map(\.expectedName).joined(separator: ", ")
        guard let line else {
            return GherkinError(
                line: lineNumber, column: 0, message: "unexpected end of file, expected: \(names)",
                reason: .unexpectedEnd)
        }
        return GherkinError(
            line: lineNumber, column: line.indent + 1,
            message: "expected: \(names), got '\(line.trimmedText)'")
    }

    /// Advice on fixing the problem.
    var help: String {
        switch reason {
        case .unexpectedLine:
            "start the line with one of the keywords listed, make it a comment with '#', or indent it under a description"
        case .unexpectedEnd:
            "finish what the file left open: close a doc string with its fence, or give the tags something to tag"
        case .inconsistentCellCount:
            "give every row of the table as many cells as the first row; write '\\|' for a '|' inside a cell"
        case .tagWithWhitespace:
            "write tags as single words starting with '@', separated by spaces"
        case .unknownLanguage:
            "use a language code from gherkin-languages.json, such as 'en', 'fr' or 'zh-CN'"
        }
    }

    /// Turns the error into a diagnostic for the file at `path`.
    func diagnostic(path: String) -> Diagnostic {
        Diagnostic(
            .error, at: SourceLocation(file: path, line: line, column: column), problem: message, help: help)
    }
}
