import Testing

@testable import StoryKit

/// ``StoryCompiler`` compiles the syntax tree straight to stories; these
/// tests hold it to the stories the official pickles map to, one by one.
@Suite(.timeLimit(.minutes(10))) struct StoryCompilerTests {
    @Test("Stories match the pickles of every good official file", .conformance("gherkin"), arguments: GherkinFixtures.features(in: "good"))
    func goodFile(name: String) throws {
        let text = try GherkinFixtures.read("good", name)
        let (stories, diagnostics) = FeatureFile.parse(text, path: "good/" + name)
        #expect(diagnostics.isEmpty)
        let expected = Self.storiesFromPickles(text, path: "good/" + name)
        #expect(stories.count == expected.count)
        for (mine, theirs) in zip(stories, expected) {
            #expect(mine == theirs)
        }
    }

    @Test("Stories match the pickles of an outline under a rule with backgrounds")
    func outline() {
        let text = FeatureFileTests.outline + """

            Rule: Second rule
              Background:
                And the till is open
                  \"\"\"text/plain
                  <amount>
                  \"\"\"
              Scenario: plain
                * anything
              Scenario: empty
              Scenario Outline: <a> and <b>
                But <a> then <b>
                  | <a> | <<b>> |
                Examples: none
                Examples:
                  | a   | b | c |
                  | <b> | x | y |
                  | 1   | 2 | 3 |
            """
        let (stories, diagnostics) = FeatureFile.parse(text, path: "refunds.feature")
        #expect(diagnostics.isEmpty)
        #expect(stories == Self.storiesFromPickles(text, path: "refunds.feature"))
        #expect(stories.count == 6)
    }

    @Test("Random feature-like text compiles to the pickles' stories")
    func randomInput() {
        var generator = SplitMix64(seed: 42)
        let pieces = [
            "Feature: f\n", "Rule: r\n", "Background:\n", "Scenario: s <a>\n", "Scenario Outline: o <a>\n",
            "Examples:\n", "| a | b |\n", "| 1 | <a> |\n", "Given <a> x\n", "And y <b>\n", "But z\n",
            "* w\n", "When v\n", "Then u\n", "\"\"\"\n", "<a> doc\n", "@t1 @t2\n", "# c\n", "\n", "text\n",
        ]
        var filesWithStories = 0
        for _ in 0..<500 {
            let count = Int.random(in: 0..<40, using: &generator)
            let text = "Feature: f\n" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let (stories, _) = FeatureFile.parse(text, path: "random.feature")
            #expect(stories == Self.storiesFromPickles(text, path: "random.feature"), "\(text)")
            if !stories.isEmpty { filesWithStories += 1 }
        }
        #expect(filesWithStories >= 25)
    }

    /// The stories the official pickles of a file map to: how stories were
    /// made before ``StoryCompiler``, kept as the reference.
    static func storiesFromPickles(_ text: String, path: String) -> [Story] {
        let (pickles, errors) = FeatureFile.compile(text, uri: path)
        guard errors.isEmpty else { return [] }
        let groupName = GherkinParser.parse(text).document?.feature?.name ?? ""
        return pickles.map { pickle in
            let location = SourceLocation(file: path, line: pickle.location.line, column: pickle.location.column)
            let steps = pickle.steps.map { step in
                let source = step.source
                let kind: Step.Kind =
                    switch step.type {
                    case .context: .context
                    case .action: .action
                    case .outcome: .outcome
                    case .unknown: .unknown
                    }
                return Step(
                    keyword: trimmed(source.keyword), kind: kind, text: step.text,
                    location: SourceLocation(file: path, line: source.location.line, column: source.location.column),
                    attachment: attachment(for: step, path: path))
            }
            return Story(
                id: location.fileAndLine, name: pickle.name, tags: pickle.tags.map(\.name), location: location,
                steps: steps, groupName: groupName)
        }
    }

    private static func trimmed(_ keyword: String) -> String {
        var text = Substring(keyword)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        return String(text)
    }

    private static func attachment(for step: Pickle.Step, path: String) -> StepAttachment? {
        let source = step.source
        var docString: DocString?
        if let content = step.docString, let written = source.docString {
            docString = DocString(
                content: content.content, mediaType: content.mediaType, delimiter: written.delimiter,
                location: SourceLocation(file: path, line: written.location.line, column: written.location.column))
        }
        var dataTable: DataTable?
        if let rows = step.dataTable, let written = source.dataTable {
            dataTable = DataTable(
                rows: rows,
                location: SourceLocation(file: path, line: written.location.line, column: written.location.column))
        }
        switch (docString, dataTable) {
        case (let doc?, let table?): return doc.location.line < table.location.line ? .docString(doc) : .dataTable(table)
        case (let doc?, nil): return .docString(doc)
        case (nil, let table?): return .dataTable(table)
        case (nil, nil): return nil
        }
    }
}
