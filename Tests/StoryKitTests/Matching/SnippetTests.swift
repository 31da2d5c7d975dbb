import Testing
@testable import StoryKit

@Suite struct SnippetTests {
    @Test("Numbers and quoted strings become typed capture groups", arguments: [
        ("I pay 3.50 euros by \"card\"", #"^I pay (-?\d*\.?\d+) euros by "([^"]*)"$"#, ["Double", "String"]),
        ("I have 12 items", #"^I have (-?\d+) items$"#, ["Int"]),
        ("the room 4b is (empty)", #"^the room 4b is \(empty\)$"#, []),
        ("it is -3 degrees", #"^it is (-?\d+) degrees$"#, ["Int"]),
    ])
    func shapes(text: String, pattern: String, types: [String]) {
        let snippet = Snippet(for: Step(keyword: "When", kind: .action, text: text, location: .init(file: "f", line: 1)))
        #expect(snippet.pattern == pattern)
        #expect(snippet.parameterTypes == types)
    }

    @Test("A snippet's pattern compiles and matches the step it was made for")
    func snippetMatches() throws {
        let step = Step(keyword: "When", kind: .action, text: "I pay 3.50 euros by \"card\" (twice)", location: .init(file: "f", line: 1))
        let pattern = try Pattern(regex: Snippet(for: step).pattern)
        #expect(pattern.captures(in: step.text) == ["3.50", "card"])
    }

    @Test("Steps of the same shape share one snippet")
    func sameShape() {
        func snippet(_ text: String) -> Snippet {
            Snippet(for: Step(keyword: "Given", kind: .context, text: text, location: .init(file: "f", line: 1)))
        }
        #expect(snippet("I have 3 apples") == snippet("I have 12 apples"))
        #expect(snippet("I have 3 apples") != snippet("I have 3 pears"))
    }
}
