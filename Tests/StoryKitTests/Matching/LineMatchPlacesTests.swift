import Testing
@testable import StoryKit

/// Simon's rule searches a regex in the whole line, keyword included; the
/// reports place arguments in the text after the keyword, as Cucumber does.
/// A group that reaches into the keyword is placed by the match in the text.
@Suite(.timeLimit(.minutes(10)))
struct LineMatchPlacesTests {
    private func match(_ regex: String, line: String, text: String) throws -> (closure: [String?], texts: [String?], spans: [Range<Int>?])? {
        let matcher = StepMatcher.regex(try Pattern(regex: regex))
        guard let found = matcher.match(line: line, text: text, attachment: nil) else { return nil }
        let closure = found.inputs.compactMap { input -> String?? in
            if case .text(let text) = input { return .some(text) }
            return nil
        }
        return (closure, found.texts, (0..<found.spans.count).map { found.spans[$0] })
    }

    @Test("A group inside the text: the line's match, moved back by the keyword")
    func groupInsideTheText() throws {
        let found = try #require(try match("an (\\w+) step", line: "And an ambiguous step", text: "an ambiguous step"))
        #expect(found.closure == ["ambiguous"])
        #expect(found.texts == ["ambiguous"])
        #expect(found.spans == [3..<12])
    }

    @Test("A group that reaches into the keyword: the closure gets the line's capture, the reports the text's")
    func groupReachingIntoTheKeyword() throws {
        let found = try #require(try match("(.*) ambiguous step", line: "And an ambiguous step", text: "an ambiguous step"))
        #expect(found.closure == ["And an"])
        #expect(found.texts == ["an"])
        #expect(found.spans == [0..<2])
    }

    @Test("A regex that needs the keyword: its arguments unplaced, never placed in the keyword")
    func regexThatNeedsTheKeyword() throws {
        let found = try #require(try match("(And|Given) an (\\w+)", line: "And an ambiguous step", text: "an ambiguous step"))
        #expect(found.closure == ["And", "ambiguous"])
        #expect(found.texts == ["And", "ambiguous"])
        #expect(found.spans.isEmpty)
    }
}
