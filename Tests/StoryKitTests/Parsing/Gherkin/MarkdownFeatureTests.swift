import Foundation
import Testing

@testable import StoryKit

/// Gherkin in Markdown (`.feature.md`), read as the official parsers read
/// it: headings for titles, bullets for steps, indented tables, prose left out.
@Suite(.timeLimit(.minutes(10))) struct MarkdownFeatureTests {
    static let cheese = """
        # Feature: Cheese

        This table is not picked up by Gherkin (not indented 2+ spaces)

        | foo | bar |
        | --- | --- |
        | boz | boo |

        ## Rule: Nom nom nom

        Prose about cheese is left out.

        ### Scenario Outline: Ylajali!

        * Given some TypeScript code:
          ```typescript
          type Cheese = 'reblochon'
          ```
        * When we eat <what>
          | name | age |
          | ---- | --: |
          | Bill |   3 |
          | Jane |   6 |
        - Then this might or might not run

        #### Examples: because we need more tables

          | what |
          | ---- |
          | gouda |
          | brie |
        """

    @Test("A Markdown feature's headings, bullets and indented tables are its feature, rule, outline, steps and rows")
    func readsMarkdown() throws {
        let (stories, diagnostics) = FeatureFile.parse(Self.cheese, path: "cheese.feature.md")
        #expect(diagnostics.isEmpty)
        #expect(stories.map(\.name) == ["Ylajali!", "Ylajali!"])
        let story = try #require(stories.first)
        #expect(story.steps.map(\.text) == ["some TypeScript code:", "we eat gouda", "this might or might not run"])
        guard case .docString(let doc) = story.steps[0].attachment else {
            Issue.record("expected a doc string")
            return
        }
        #expect(doc.content == "type Cheese = 'reblochon'")
        #expect(doc.mediaType == "typescript")
        guard case .dataTable(let table) = story.steps[1].attachment else {
            Issue.record("expected a data table")
            return
        }
        // The separator row `| ---- | --: |` is no row.
        #expect(table.rows == [["name", "age"], ["Bill", "3"], ["Jane", "6"]])
        #expect(stories.last?.steps[1].text == "we eat brie")
    }

    @Test("The syntax tree has the official columns, no comments, and the text after the unindented table as the description")
    func syntaxTree() throws {
        let (document, errors, _) = GherkinParser.parse(Self.cheese, markdown: true)
        #expect(errors.isEmpty)
        let feature = try #require(document?.feature)
        #expect(feature.name == "Cheese")
        #expect(feature.location == GherkinLocation(line: 1, column: 3))
        #expect(feature.description == "| boz | boo |")
        #expect(document?.comments.isEmpty == true)
        guard case .rule(let rule) = try #require(feature.children.first) else {
            Issue.record("expected a rule")
            return
        }
        #expect(rule.location == GherkinLocation(line: 9, column: 4))
        #expect(rule.description == "")
    }

    @Test("The same text as a plain feature file is not Markdown: it has errors")
    func plainFeatureIsNotMarkdown() {
        let (_, diagnostics) = FeatureFile.parse(Self.cheese, path: "cheese.feature")
        #expect(!diagnostics.isEmpty)
    }

    @Test("--order reverse runs the last story first")
    func reverseOrder() {
        #expect(StoryOrder("reverse") == .reverse)
        #expect(StoryOrder.reverse.apply(to: [1, 2, 3]) == [3, 2, 1])
    }

    @Test("Pickle ids go on from file to file in one stream")
    func pickleIDsAcrossFiles() {
        let text = "Feature: F\n  Scenario: S\n    Given a step\n"
        var ids = 0
        let first = FeatureFile.pickleLines(text, uri: "a.feature", ids: &ids).lines
        let second = FeatureFile.pickleLines(text, uri: "b.feature", ids: &ids).lines
        func pickleID(_ line: String) -> String? {
            guard let data = line.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let pickle = object["pickle"] as? [String: Any]
            else { return nil }
            return pickle["id"] as? String
        }
        #expect(first.compactMap(pickleID) == ["3"])
        #expect(second.compactMap(pickleID) == ["7"])
    }
}
