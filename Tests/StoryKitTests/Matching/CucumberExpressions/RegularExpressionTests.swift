import Testing

@testable import StoryKit

extension CucumberExpressionsTests {
    @Suite(.timeLimit(.minutes(10))) struct RegularExpressionTests {
        @Test(
            "Regular expressions match texts into the official arguments",
            .conformance("cucumber-expressions"),
            arguments: ConformanceCase.all(in: "regular-expression/matching"))
        func matching(_ testCase: ConformanceCase) throws {
            let expression = try RegularExpression(testCase.expression)
            let arguments = try expression.match(testCase.json["text"]?.string ?? "")
            try CucumberExpressionTests.expect(arguments, equal: testCase.json["expected_args"])
        }

        @Test("A group with a parameter type's regular expression is converted by that type")
        func typedGroup() throws {
            let arguments = try #require(
                try RegularExpression(#"^I have (-?\d+) "(.*)"$"#).match(#"I have 12 "x""#))
            #expect(arguments.map(\.parameterTypeName) == ["int", ""])
            #expect(arguments[0].value as? Int == 12)
            #expect(arguments[1].value as? String == "x")
            #expect(CucumberArgument.jsonArray(arguments) == #"[12,"x"]"#)
        }

        @Test("A group claimed by several types, none preferred, is an error")
        func ambiguousGroup() {
            let pattern = #"^(\d*)$"#
            var registry = ParameterTypeRegistry()
            #expect(throws: Never.self) {
                try registry.define(ParameterType(name: "a", regexps: [#"\d*"#]) { $0 })
                try registry.define(ParameterType(name: "b", regexps: [#"\d*"#]) { $0 })
            }
            #expect(throws: CucumberExpressionError.self) {
                try RegularExpression(pattern, parameterTypes: registry).match("1")
            }
        }
    }

}

extension CucumberExpressionsTests.RegularExpressionTests {
    @Test("A group with no part in the match, or whose first inner group has none, is nil")
    func absentGroups() throws {
        let arguments = try #require(try RegularExpression("^(a(b)?)(c)?$").match("a"))
        #expect(arguments.count == 2)
        #expect(arguments[0].text == "a")
        #expect(arguments[0].value == nil)
        #expect(arguments[1].text == nil)
        #expect(arguments[1].value == nil)
        #expect(CucumberArgument.jsonArray(arguments) == "[null,null]")
    }

    @Test("A regular expression is searched for in the text, as in JavaScript")
    func search() throws {
        let arguments = try #require(
            try RegularExpression(#"(\d+) cukes"#).match("I have 42 cukes today"))
        #expect(arguments.first?.value as? Int == 42)
    }
}
