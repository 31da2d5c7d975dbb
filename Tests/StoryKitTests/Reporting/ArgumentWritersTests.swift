import Testing
@testable import StoryKit

/// A match's arguments as Cucumber JSON (`arguments`) and Messages
/// (`stepMatchArguments`) write them, placed from its spans or not: the
/// bytes the writers wrote by hand before they went through `JSONWriter`
/// (the goldens place every argument; these cover the rest).
@Suite(.timeLimit(.minutes(10))) struct ArgumentWritersTests {
    /// `é` is two bytes, one scalar, one UTF-16 unit: offsets count it once.
    private static let text = "é x ab-12 y"

    private static func match(_ arguments: [String?], spans: [Int32]) -> MatchInfo {
        var match = MatchInfo(pattern: "p", location: SourceLocation(file: "Steps.swift", line: 1), arguments: arguments)
        match.spans = GroupSpans(bounds: spans) ?? .none
        return match
    }

    private static func cucumberJSON(_ match: MatchInfo, _ layout: GroupLayout) -> String {
        String(decoding: JSONWriter.bytes { CucumberJSONReporter.writeArguments(match, layout: layout, in: text, into: &$0) }, as: UTF8.self)
    }

    private static func messages(_ match: MatchInfo, _ layout: GroupLayout) -> String {
        String(decoding: JSONWriter.bytes { MessagesReporter.writeMatchArguments(match, layout: layout, text: text, into: &$0) }, as: UTF8.self)
    }

    @Test("A regex's nested groups, one that took no part: placed, children inside their parent")
    func nestedGroups() {
        let match = Self.match(["ab-12", "ab", "12", nil], spans: [5, 10, 5, 7, 8, 10, -1, -1])
        let layout = GroupLayout(parents: [-1, 0, 0, -1], parameterTypeNames: nil)
        #expect(Self.cucumberJSON(match, layout)
            == #"[{"val":"ab-12","offset":4},{"val":"ab","offset":4},{"val":"12","offset":7},{"val":null,"offset":null}]"#)
        #expect(Self.messages(match, layout) == #"{"stepMatchArguments":["#
            + #"{"group":{"start":4,"value":"ab-12","children":[{"start":4,"value":"ab"},{"start":7,"value":"12"}]}},"#
            + #"{"group":{"start":4,"value":"ab"}},{"group":{"start":7,"value":"12"}},{"group":{}}]}"#)
    }

    @Test("A Cucumber Expression's parameters: the top-level groups, with their type names")
    func expressionParameters() {
        let match = Self.match(["ab-12", "y"], spans: [5, 10, 5, 7, 11, 12])
        let layout = GroupLayout(parents: [-1, 0, -1], parameterTypeNames: ["word", "letter"])
        #expect(Self.cucumberJSON(match, layout) == #"[{"val":"ab-12","offset":4},{"val":"y","offset":10}]"#)
        #expect(Self.messages(match, layout) == #"{"stepMatchArguments":["#
            + #"{"group":{"start":4,"value":"ab-12","children":[{"start":4,"value":"ab"}]},"parameterTypeName":"word"},"#
            + #"{"group":{"start":10,"value":"y"},"parameterTypeName":"letter"}]}"#)
    }

    @Test("Arguments the spans do not place: their values alone, escaped; null offsets")
    func unplaced() {
        let match = Self.match(["3\"\n", nil], spans: [])
        #expect(Self.cucumberJSON(match, .flat) == #"[{"val":"3\"\n","offset":null},{"val":null,"offset":null}]"#)
        #expect(Self.messages(match, .flat) == #"{"stepMatchArguments":[{"group":{"value":"3\"\n"}},{"group":{}}]}"#)
        let named = GroupLayout(parents: [], parameterTypeNames: ["int", "string"])
        #expect(Self.messages(match, named)
            == #"{"stepMatchArguments":[{"group":{"value":"3\"\n"},"parameterTypeName":"int"},{"group":{},"parameterTypeName":"string"}]}"#)
        // A span past the step's text places nothing: the value alone, in both.
        let past = Self.match(["zz"], spans: [5, 99])
        #expect(Self.cucumberJSON(past, .flat) == #"[{"val":"zz","offset":null}]"#)
        #expect(Self.messages(past, .flat) == #"{"stepMatchArguments":[{"group":{"value":"zz"}}]}"#)
        #expect(Self.cucumberJSON(Self.match([], spans: []), .flat) == "[]")
        #expect(Self.messages(Self.match([], spans: []), .flat) == #"{"stepMatchArguments":[]}"#)
    }
}
