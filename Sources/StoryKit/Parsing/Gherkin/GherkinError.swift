/// A problem found while reading a feature file, with the official
/// parser's wording.
struct GherkinError: Error, Hashable, Sendable {
    /// The line, counted from 1.
    let line: Int
    /// The column, counted from 1; 0 when the problem has no column (end of file).
    let column: Int
    /// The message, without the `(line:column): ` prefix.
    let message: String

    /// The message as the official parser prints it: `(line:column): message`.
    var fullMessage: String { "(\(line):\(column)): \(message)" }

    /// Makes the error for a token that the parser did not expect.
    static func unexpected(
        _ line: GherkinLine?, lineNumber: Int, expected: [GherkinToken.Kind]
    ) -> GherkinError {
        let names = expected.map(\.expectedName).joined(separator: ", ")
        guard let line else {
            return GherkinError(
                line: lineNumber, column: 0, message: "unexpected end of file, expected: \(names)")
        }
        return GherkinError(
            line: lineNumber, column: line.indent + 1,
            message: "expected: \(names), got '\(line.trimmedText)'")
    }

    /// Turns the error into a diagnostic for the file at `path`.
    func diagnostic(path: String) -> Diagnostic {
        Diagnostic(.error, at: SourceLocation(file: path, line: line, column: column), problem: message)
    }
}
