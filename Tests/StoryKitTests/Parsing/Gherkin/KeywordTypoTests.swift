import Testing
@testable import StoryKit

/// A mistyped Gherkin keyword is read as description text, as the official
/// parser reads it, and a run says so.
@Suite(.timeLimit(.minutes(10))) struct KeywordTypoTests {
    static let typos = """
        Feature: f
          Rules: every account has an owner.
          Scenaro: a

          Background:
            Givn a step that passes
            When a step that passes

          Scenario: d
            They said so.
            Given a step that passes

          Scenario: e
            Scenario Outlin: c
            Thne a step that passes
        """

    @Test("A keyword typo in a description is a warning naming the line and the keyword meant; the stories are the official parser's")
    func typosWarn() {
        let (stories, diagnostics) = FeatureFile.parse(Self.typos, path: "x.feature")
        #expect(stories.count == 2)
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        let problems = diagnostics.map { "\($0.location?.line ?? 0): \($0.problem)" }
        #expect(problems == [
            "3: 'Scenaro:' is read as description text; did you mean 'Scenario:'?",
            "6: 'Givn' is read as description text; did you mean 'Given'?",
            "14: 'Scenario Outlin:' is read as description text; did you mean 'Scenario Outline:'?",
            "15: 'Thne' is read as description text; did you mean 'Then'?",
        ])
        // The pickles stay exactly the official parser's.
        #expect(FeatureFile.pickleLines(Self.typos, uri: "x.feature").diagnostics.isEmpty)
    }

    @Test("Prose in descriptions is left alone: plurals, words near a short keyword, lines away from the steps")
    func proseIsQuiet() {
        let prose = """
            Feature: money
              Rules: every account has an owner.
              Notes: see the wiki.
              Given that banks exist, we
              Then go on.

              Scenario: a
                The user logs in.
                Given a step that passes

              Scenario: b
                Gives the user a token, and

                Given a step that passes
            """
        let (stories, diagnostics) = FeatureFile.parse(prose, path: "p.feature")
        #expect(stories.count == 2)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.problem))")
    }

    @Test("Keywords of the file's language count", arguments: [
        ("# language: fr\nFonctionnalité: f\n  Scénaroi: a\n", "'Scénaroi:' is read as description text; did you mean 'Scénario:'?"),
        ("Feature: f\n  scenario: a\n", "'scenario:' is read as description text; did you mean 'Scenario:'?"),
    ])
    func language(text: String, problem: String) {
        #expect(FeatureFile.parse(text, path: "l.feature").diagnostics.map(\.problem) == [problem])
    }
}
