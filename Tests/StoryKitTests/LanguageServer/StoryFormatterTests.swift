import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct StoryFormatterTests {
    static func format(_ text: String, isFeature: Bool = true) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return StoryFormatter.format(StoryOutline(lines: lines, isFeature: isFeature), isFeature: isFeature)
    }

    @Test("A feature is indented by level, tags and comments go with the line below, tables are aligned")
    func feature() {
        let input = """
            # language: en
               @wip
            Feature: Basket
            A description stays as written.
            Rule: Discounts
            # about the scenario
            Scenario: Adding
            Given the basket is stocked with:
            | item | count |
              |apples|12|
            When I add 3 apples to the basket   
            """
        let expected = """
            # language: en
            @wip
            Feature: Basket
            A description stays as written.
              Rule: Discounts
                # about the scenario
                Scenario: Adding
                  Given the basket is stocked with:
                    | item   | count |
                    | apples | 12    |
                  When I add 3 apples to the basket
            """
        #expect(Self.format(input) == expected)
    }

    @Test("A doc string moves with its fence and keeps its own indentation")
    func docString() {
        let input = "Feature: F\nScenario: S\nGiven the customer writes:\n\"\"\"\nDear shop,\n  thanks\n\"\"\"\n"
        let expected = "Feature: F\n  Scenario: S\n    Given the customer writes:\n      \"\"\"\n      Dear shop,\n        thanks\n      \"\"\"\n"
        #expect(Self.format(input) == expected)
    }

    @Test("Formatting a formatted file changes nothing; a .stories file indents its steps")
    func idempotent() {
        let once = Self.format("Story: S\nGiven an empty basket\n    When I add 3 apples to the basket\n", isFeature: false)
        #expect(once == "Story: S\n  Given an empty basket\n  When I add 3 apples to the basket\n")
        #expect(Self.format(once, isFeature: false) == once)
    }
}
