import StoryKit
import Testing

@testable import StepLibrarySupport
@testable import StoryKitHTTP
@testable import StoryKitProcess

@Suite(.timeLimit(.minutes(10))) struct TextTests {
    @Test("A diff shows removed lines before added ones, around unchanged context")
    func diff() {
        #expect(TextDiff.render(expected: "a\nb\nc", actual: "a\nb\nc") == nil)
        #expect(TextDiff.render(expected: "one\n2\nthree", actual: "one\ntwo\nthree") == "--- expected\n+++ actual\n one\n-2\n+two\n three")
        #expect(TextDiff.render(expected: "x ", actual: "x") == "--- expected\n+++ actual\n-x ⏎\n+x")
    }

    @Test("JSON compares ignoring key order; subsets and paths")
    func json() throws {
        let value = try JSONValue.parse(#"{"b": [1, {"c": "x\u00e9"}], "a": true, "n": null}"#)
        let reordered = try JSONValue.parse(#"{"a":true,"n":null,"b":[1.0,{"c":"xé"}]}"#)
        #expect(value.matches(reordered))
        let subset = try JSONValue.parse(#"{"b": [1, {}]}"#), other = try JSONValue.parse(#"{"a": false}"#)
        #expect(value.matches(subset, containing: true))
        #expect(!value.matches(other, containing: true))
        #expect(value.value(at: "b[1].c") == .string("xé"))
        #expect(value.value(at: "$.b[0]") == .int(1))
        #expect(value.value(at: "b[5]") == nil)
        #expect(try JSONValue.parse(#"{"k": 1, "k": 2}"#).value(at: "k") == .int(2))
        #expect(throws: JSONError.self) { try JSONValue.parse(#"{"a": }"#) }
        #expect(throws: JSONError.self) { try JSONValue.parse(String(repeating: "[", count: 10_000)) }
        #expect(value.sortedText == #"{"a":true,"b":[1,{"c":"xé"}],"n":null}"#)
        #expect(value.plainText == value.sortedText && JSONValue.string("x\"y").plainText == "x\"y")
    }

    @Test("JSON is read by StoryKit's one reader: strict, with the line and column of a problem")
    func jsonErrors() throws {
        #expect(throws: JSONError.self) { try JSONValue.parse(#""\q""#) }
        #expect(throws: JSONError.self) { try JSONValue.parse("\"a\u{01}b\"") }
        do {
            _ = try JSONValue.parse("{\"a\": [1,\n  2,]}")
            Issue.record("a comma before ] parsed")
        } catch {
            #expect("\(error)" == "not JSON: JSON allows no comma before the ] at line 2, column 5")
        }
    }

    @Test("Command lines split like a shell's, with variables, without running one")
    func commandWords() throws {
        let words = try CommandWords.split(#"sh -c 'echo "$X"; exit 3' "a b" c\ d $Y ${Y}z"#, environment: ["Y": "why"])
        #expect(words == ["sh", "-c", #"echo "$X"; exit 3"#, "a b", "c d", "why", "whyz"])
        #expect(throws: CommandError.self) { try CommandWords.split("echo 'open") }
    }

    @Test("Path patterns: segments, wildcards, queries")
    func paths() {
        #expect(StubRule.path("/orders/*", matches: "/orders/7?x=1"))
        #expect(!StubRule.path("/orders/*", matches: "/orders/7/lines"))
        #expect(StubRule.path("/orders/**", matches: "/orders/7/lines"))
        #expect(StubRule.path("/search?q=a+b", matches: "/search?page=2&q=a%20b"))
        #expect(!StubRule.path("/search?q=a", matches: "/search?q=b"))
    }
}
