import Testing

@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct GherkinDialectTests {
    @Test("Every language in gherkin-languages.json has a dialect")
    func everyLanguage() throws {
        #expect(GherkinDialect.codes.count == 80)
        for code in GherkinDialect.codes {
            let dialect = try #require(GherkinDialect.named(code))
            #expect(dialect.code == code)
            #expect(!dialect.featureKeywords.isEmpty && !dialect.stepKeywords.isEmpty)
        }
        #expect(GherkinDialect.named("xx") == nil)
    }

    @Test("Step keywords are tried longest first, and * has no type of its own")
    func stepKeywordOrder() throws {
        let dialect = try #require(GherkinDialect.named("ht"))
        let lengths = dialect.stepKeywords.map { $0.keyword.unicodeScalars.count }
        #expect(lengths == lengths.sorted(by: >))
        let star = try #require(GherkinDialect.english.stepKeywords.first { $0.keyword == "* " })
        #expect(star.type == .unknown)
        let given = try #require(GherkinDialect.english.stepKeywords.first { $0.keyword == "Given " })
        #expect(given.type == .context)
    }

    @Test("A # language: header switches the keywords")
    func languageHeader() throws {
        let text = """
            # language: fr
            Fonctionnalité: Addition
              Scénario: deux nombres
                Soit une calculatrice
                Et que je tape 2
                Quand j'appuie sur plus
                Alors je vois 4
            """
        let (stories, diagnostics) = FeatureFile.parse(text, path: "fr.feature")
        #expect(diagnostics.isEmpty)
        let story = try #require(stories.first)
        #expect(story.groupName == "Addition")
        #expect(story.steps.map(\.keyword) == ["Soit", "Et que", "Quand", "Alors"])
        #expect(story.steps.map(\.kind) == [.context, .context, .action, .outcome])
    }

    @Test("An unknown language is an error at the header")
    func unknownLanguage() {
        let (stories, diagnostics) = FeatureFile.parse("# language: xx\nFeature: f\n", path: "x.feature")
        #expect(stories.isEmpty)
        #expect(diagnostics.map(\.problem) == ["Language not supported: xx"])
        #expect(diagnostics.first?.location == SourceLocation(file: "x.feature", line: 1, column: 1))
    }
}
