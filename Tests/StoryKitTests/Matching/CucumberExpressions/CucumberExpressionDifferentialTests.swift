import Foundation
import Testing

@testable import StoryKit

extension CucumberExpressionsTests {
    /// Compares storyrun with the official Python implementation on generated
    /// inputs (`Fixtures/cucumber-expressions/differential/generate.py`).
    @Suite(.timeLimit(.minutes(10))) struct CucumberExpressionDifferentialTests {
        static func cases(_ name: String) throws -> [[String: String]] {
            let url = URL(fileURLWithPath: Golden.fixture("cucumber-expressions/differential/\(name)"))
            return try JSONDecoder().decode([[String: String]].self, from: Data(contentsOf: url))
        }

        @Test("Random expressions turn into the same regex, or fail with the same message")
        func expressions() throws {
            let cases = try Self.cases("expressions.json")
            #expect(cases.count == 1000)
            for expected in cases {
                let source = expected["expression"] ?? ""
                var actual = ["expression": source]
                do {
                    actual["regex"] = try CucumberExpression(source).regexPattern
                } catch {
                    actual["error"] = error.message
                }
                #expect(actual == expected)
            }
        }

        @Test("Random texts match into the same arguments")
        func matches() throws {
            let cases = try Self.cases("matches.json")
            #expect(cases.count > 800)
            for expected in cases {
                var actual = expected
                do {
                    let expression = try CucumberExpression(expected["expression"] ?? "")
                    actual["result"] =
                        try expression.match(expected["text"] ?? "").map(CucumberArgument.jsonArray)
                        ?? "nil"
                } catch {
                    actual["result"] = "ERR " + error.message
                }
                #expect(actual == expected)
            }
        }
    }
}
