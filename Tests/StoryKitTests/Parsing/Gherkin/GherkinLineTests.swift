import Testing

@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct GherkinLineTests {
    /// A table row and the cells it must give.
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let row: String
        let cells: [String]
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "plain-cells-are-trimmed", row: "  | a |  bb |", cells: ["a", "bb"]),
        Case(id: "escaped-pipe-stays-in-the-cell", row: #"| a \| b |"#, cells: ["a | b"]),
        Case(id: "escaped-backslash-is-one-backslash", row: #"| c\\d |"#, cells: [#"c\d"#]),
        Case(id: "escaped-n-is-a-line-feed", row: #"| e\nf |"#, cells: ["e\nf"]),
        Case(id: "other-escapes-are-kept", row: #"| g\h |"#, cells: [#"g\h"#]),
        Case(id: "empty-cell", row: "||x|", cells: ["", "x"]),
        Case(id: "text-after-last-pipe-is-dropped", row: "| a | b", cells: ["a"]),
        Case(id: "trailing-backslash-drops-the-cell", row: #"| a | b \"#, cells: ["a"]),
        Case(id: "columns-count-characters", row: "| é | ü |", cells: ["é", "ü"]),
    ]

    @Test("Table rows split into cells with escapes resolved", arguments: cases)
    func tableCells(_ example: Case) {
        let cells = Self.withLine(example.row, number: 1) { $0.tableCells }
        #expect(cells == example.cells)
    }

    @Test("Tag lines split into tags, a comment ends them")
    func tags() throws {
        let tags = try Self.withLine("  @a @b.c@d #@not", number: 3) { try $0.tags() }
        #expect(tags.map(\.text) == ["@a", "@b.c", "@d"])
        #expect(tags.map(\.column) == [3, 6, 10])
    }

    @Test("A tag with white space in it is an error")
    func tagWithWhitespace() {
        #expect(throws: GherkinError(line: 1, column: 5, message: "A tag may not contain whitespace", reason: .tagWithWhitespace)) {
            try Self.withLine("@ok @not ok", number: 1) { try $0.tags() }
        }
    }

    /// Calls `body` with `text` as a line numbered `number`.
    static func withLine<T>(_ text: String, number: Int, _ body: (GherkinLine) throws -> T) rethrows -> T {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            try body(GherkinLine(bytes: buffer, start: 0, end: buffer.count, number: number))
        }
    }

    @Test("Doc strings lose their fence's indentation and unescape their fence")
    func docStringIndentation() throws {
        let text = """
            Feature: f
              Scenario: s
                Given text
                  ```markdown
                  first
                    indented
                less
                  \\`\\`\\`
                  ```
            """
        let (stories, diagnostics) = FeatureFile.parse(text, path: "d.feature")
        #expect(diagnostics.isEmpty)
        let step = try #require(stories.first?.steps.first)
        guard case .docString(let doc) = step.attachment else {
            Issue.record("expected a doc string")
            return
        }
        #expect(doc.content == "first\n  indented\nless\n```")
        #expect(doc.mediaType == "markdown")
        #expect(doc.delimiter == "```")
        #expect(doc.location == SourceLocation(file: "d.feature", line: 4, column: 7))
    }
}
