import Foundation
import Testing

@testable import StoryKit

extension CucumberExpressionsTests {
    @Suite(.timeLimit(.minutes(10))) struct CucumberArgumentJSONTests {
        @Test("Arguments render as a JSON array of numbers, strings and nulls")
        func array() throws {
            var registry = ParameterTypeRegistry()
            try registry.define(ParameterType(name: "color", regexps: ["red|blue"]) { $0[0] ?? "" })
            let expression = try CucumberExpression(
                "{int} {color} {float}", parameterTypes: registry)
            let arguments = try #require(try expression.match("3 red 1.5"))
            let absent = CucumberArgument(text: nil, value: nil, parameterTypeName: "")
            #expect(CucumberArgument.jsonArray(arguments + [absent]) == #"[3,"red",1.5,null]"#)
        }

        @Test(
            "Values render as JSON text",
            arguments: [
                (#"a "quoted" \ line"# + "\n\u{1}", #""a \"quoted\" \\ line\n\u0001""#),
                ("é😀", #""é😀""#),
            ])
        func string(value: String, json: String) {
            #expect(CucumberArgument.jsonValue(value) == json)
        }

        @Test("Numbers render as valid JSON numbers, every digit kept")
        func numbers() throws {
            #expect(CucumberArgument.jsonValue(Int8(-4)) == "-4")
            #expect(CucumberArgument.jsonValue(Float(1500)) == "1500.0")
            #expect(CucumberArgument.jsonValue(Double.infinity) == "null")
            #expect(CucumberArgument.jsonValue(Decimal(string: "2.25")) == "2.25")
            #expect(CucumberArgument.jsonValue(true) == "true")
            let big = try #require(BigNumber("+0012345678901234567890123456789012345678901.5E+3"))
            #expect(
                CucumberArgument.jsonValue(big) == "12345678901234567890123456789012345678901.5E+3")
            #expect(BigNumber("-.5")?.jsonText == "-0.5")
            #expect(BigNumber("000")?.jsonText == "0")
        }

        @Test(
            "Big numbers accept decimal text only",
            arguments: ["", "-", ".", "1.", "1e", "x1", "1 "])
        func bigNumberRejects(text: String) {
            #expect(BigNumber(text) == nil)
        }
    }
}
