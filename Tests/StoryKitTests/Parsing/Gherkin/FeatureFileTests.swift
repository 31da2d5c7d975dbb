import Testing

@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct FeatureFileTests {
    static let outline = """
        @billing
        Feature: Refunds
          Background:
            Given a shop

          Rule: Only recent orders
            @slow
            Scenario Outline: refund <amount> after <days> days
              When I ask for <amount> back after <days> days
              And the clerk checks
                | amount   | days   |
                | <amount> | <days> |
              Then I get <result>

              @recent
              Examples:
                | amount | days | result  |
                | 10     | 3    | 10      |
                | 20     | 40   | nothing |
        """

    @Test("Outlines expand to one story per row with placeholders filled in")
    func outlineSubstitution() throws {
        let (stories, diagnostics) = FeatureFile.parse(Self.outline, path: "refunds.feature")
        #expect(diagnostics.isEmpty)
        #expect(stories.map(\.name) == ["refund 10 after 3 days", "refund 20 after 40 days"])
        let story = try #require(stories.last)
        #expect(story.steps.map(\.text) == ["a shop", "I ask for 20 back after 40 days", "the clerk checks", "I get nothing"])
        guard case .dataTable(let table) = story.steps[2].attachment else {
            Issue.record("expected a data table")
            return
        }
        #expect(table.rows == [["amount", "days"], ["20", "40"]])
        #expect(table.location == SourceLocation(file: "refunds.feature", line: 11, column: 9))
    }

    @Test("A pickle maps to a story: tags, location, id, group and steps")
    func storyMapping() throws {
        let (stories, _) = FeatureFile.parse(Self.outline, path: "refunds.feature")
        let story = try #require(stories.first)
        #expect(story.tags == ["@billing", "@slow", "@recent"])
        #expect(story.location == SourceLocation(file: "refunds.feature", line: 18, column: 9))
        #expect(story.id == "refunds.feature:18")
        #expect(story.groupName == "Refunds")
        #expect(story.steps.map(\.keyword) == ["Given", "When", "And", "Then"])
        #expect(story.steps.map(\.kind) == [.context, .action, .action, .outcome])
        #expect(story.steps.map(\.location.line) == [4, 9, 10, 13])
        #expect(story.steps[1].location == SourceLocation(file: "refunds.feature", line: 9, column: 7))
    }

    @Test("A file saved with a UTF-8 byte order mark reads as without it (as cucumber-jvm)")
    func byteOrderMark() throws {
        let (stories, diagnostics) = FeatureFile.parse("\u{FEFF}Feature: f\n  Scenario: s\n    Given x\n", path: "bom.feature")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let story = try #require(stories.first)
        #expect(story.groupName == "f")
        #expect(story.steps.map(\.location) == [SourceLocation(file: "bom.feature", line: 3, column: 5)])
    }

    @Test("A broken file gives every error and no stories")
    func errors() {
        let text = "Feature: f\n  Scenario: s\n    Given x\n      | a | b |\n      | c |\nnonsense\n"
        let (stories, diagnostics) = FeatureFile.parse(text, path: "bad.feature")
        #expect(stories.isEmpty)
        #expect(diagnostics.count == 2)
        #expect(diagnostics.allSatisfy { $0.severity == .error })
        #expect(diagnostics.first?.location == SourceLocation(file: "bad.feature", line: 6, column: 1))
        #expect(diagnostics.last?.problem == "inconsistent cell count within the table")
        #expect(diagnostics.allSatisfy { $0.help != nil })
    }

    @Test("Random bytes never trap")
    func randomInput() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("Feature:Scenario Outline:Examples:Given |\\@#\"`<>\n\r\t é\u{00A0}*:")
        for _ in 0..<300 {
            let count = Int.random(in: 0..<200, using: &generator)
            let text = String((0..<count).map { _ in alphabet.randomElement(using: &generator)! })
            _ = FeatureFile.parse(text, path: "random.feature")
            _ = FeatureFile.pickleLines(text, uri: "random.feature")
        }
    }
}
