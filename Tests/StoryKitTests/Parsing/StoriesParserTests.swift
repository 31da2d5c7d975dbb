import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct StoriesParserTests {
    @Test("Good story files parse to the stories in their .plan golden", arguments: Golden.files(in: "stories/good", withExtension: "stories"))
    func goodFile(name: String) {
        let (stories, diagnostics) = StoryLoader.parseFile(at: Golden.fixture("stories/good/" + name))
        #expect(diagnostics.isEmpty)
        Golden.check(Golden.relativize(Self.plan(stories)), against: "stories/good/\(name).plan")
    }

    @Test("Bad story files give the diagnostics in their .errors golden", arguments: Golden.files(in: "stories/bad", withExtension: "stories"))
    func badFile(name: String) {
        let (stories, diagnostics) = StoryLoader.parseFile(at: Golden.fixture("stories/bad/" + name))
        #expect(!diagnostics.isEmpty)
        let text = diagnostics.map { $0.rendered(style: .tags) }.joined(separator: "\n")
            + "\n--- stories that still run:\n" + Self.plan(stories)
        Golden.check(Golden.relativize(text), against: "stories/bad/\(name).errors")
    }

    struct LineCase: Sendable, CustomTestStringConvertible {
        var id: String
        var source: String
        var keywords: [String]
        var texts: [String]
        var testDescription: String { id }
    }

    @Test("Lines are trimmed, compared in any case and stripped of trailing punctuation", arguments: [
        LineCase(id: "plain", source: "Story: s\nGiven a\nThen b", keywords: ["Given", "Then"], texts: ["a", "b"]),
        LineCase(id: "any-case", source: "STORY s\ngIVEN a\nthen b", keywords: ["gIVEN", "then"], texts: ["a", "b"]),
        LineCase(id: "punctuation", source: "Story: s\nGiven a.\nThen b?!  ", keywords: ["Given", "Then"], texts: ["a", "b"]),
        LineCase(id: "blanks-and-comments", source: "\n# c\n  Story: s  \n\n  Given a\n# c\nThen b\n", keywords: ["Given", "Then"], texts: ["a", "b"]),
        LineCase(id: "bom-and-crlf", source: "\u{FEFF}Story: s\r\nGiven a\r\nThen b\r\n", keywords: ["Given", "Then"], texts: ["a", "b"]),
        LineCase(id: "and-but", source: "Story: s\nGiven a\nAnd b\nBut c\nWhen d\nThen e\nAnd f", keywords: ["Given", "And", "But", "When", "Then", "And"], texts: ["a", "b", "c", "d", "e", "f"]),
        LineCase(id: "as", source: "Story: s\nAs a user\nWhen d\nThen e", keywords: ["As", "When", "Then"], texts: ["a user", "d", "e"]),
    ])
    func lines(_ test: LineCase) throws {
        let (stories, diagnostics) = StoriesParser.parse(test.source, path: "t.stories")
        #expect(diagnostics.isEmpty)
        let story = try #require(stories.first)
        #expect(story.name == "s")
        #expect(story.steps.map(\.keyword) == test.keywords)
        #expect(story.steps.map(\.text) == test.texts)
    }

    @Test("And and But keep the kind of the step before them")
    func andKeepsKind() throws {
        let (stories, _) = StoriesParser.parse("Story: s\nGiven a\nAnd b\nWhen c\nBut d\nThen e\nAnd f", path: "t.stories")
        #expect(try #require(stories.first).steps.map(\.kind) == [.context, .context, .action, .action, .outcome, .outcome])
    }

    @Test("Every step keeps its file, line and column")
    func locations() throws {
        let (stories, _) = StoriesParser.parse("Story: s\n\n   Given a\nThen b", path: "dir/t.stories")
        let steps = try #require(stories.first).steps
        #expect(steps.map(\.location) == [
            SourceLocation(file: "dir/t.stories", line: 3, column: 4),
            SourceLocation(file: "dir/t.stories", line: 4, column: 1),
        ])
        #expect(stories.first?.id == "dir/t.stories:1")
    }

    @Test("A tag line among a story's steps is an error and that story does not run (untagged it could slip past --tags \"not @wip\")")
    func tagsAmongSteps() {
        let (stories, diagnostics) = StoriesParser.parse("Story: a\nGiven x\n@wip\nWhen y\n\nStory: b\nGiven z", path: "t.stories")
        #expect(stories.map(\.name) == ["b"])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.problem == "tags @wip are not followed by a Story line")
        #expect(diagnostics.first?.notes.first?.message == "story \"a\" is not run")
    }

    @Test("Tag lines above a Story line tag that story")
    func tags() throws {
        let (stories, diagnostics) = StoriesParser.parse("@smoke @fast\nStory: s\nGiven a\n@wip\nStory: t\nGiven b", path: "t.stories")
        #expect(diagnostics.isEmpty)
        #expect(stories.map(\.tags) == [["@smoke", "@fast"], ["@wip"]])
    }

    @Test("Plain lines read from their bytes give the stories and diagnostics the Characters' way gives: every fixture, and 2,000 random files")
    func plainLinesParity() throws {
        func check(_ text: String, _ what: String) {
            let fast = StoriesParser.parse(text, path: "p.stories")
            let slow = StoriesParser.parse(text, path: "p.stories", readsPlainLines: false)
            #expect(Self.plan(fast.stories) == Self.plan(slow.stories), "\(what)")
            #expect(fast.stories == slow.stories, "\(what)")
            #expect(fast.diagnostics == slow.diagnostics, "\(what)")
        }
        for folder in ["stories/good", "stories/bad"] {
            for name in Golden.files(in: folder, withExtension: "stories") {
                // Some bad fixtures are not UTF-8: read with repairs.
                let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: Golden.fixture(folder + "/" + name))), as: UTF8.self)
                check(text, name)
            }
        }
        let lines = [
            "Story: a", "Story:b", "story c.", "STORY:  d!", "Story", "Story:", "Story: ", "Stories are told", "Story:\tx",
            "Given g", "given g2", "When w", "Then t", "And a", "But b", "As a user", "  Given indented", "\tThen tabbed,",
            "Given", "When  ", "Then x\r", "And caf\u{E9}", "# comment", "#", "", "  ", "@tag", "@a @b", "@ bad",
            "Gherkin x", "Scenario: y", "Given a \"quoted\" text:", "When I add 3 apples.", "Then ?!", "And ...",
        ]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<2_000 {
            let count = Int.random(in: 1...14, using: &generator)
            let text = (0..<count).map { _ in lines.randomElement(using: &generator)! }.joined(separator: round % 3 == 0 ? "\r\n" : "\n")
            check(text, text)
        }
    }

    /// A readable dump of parsed stories.
    static func plan(_ stories: [Story]) -> String {
        stories.map { story in
            var lines = ["story \"\(story.name)\" at \(story.location)" + (story.tags.isEmpty ? "" : " tags \(story.tags.joined(separator: " "))")]
            for step in story.steps {
                lines.append("  \(step.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(step.keyword) | \(step.text) @\(step.location.line):\(step.location.column)")
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n") + "\n"
    }
}
