import Testing

@testable import StoryKit

extension CucumberExpressionsTests {
    @Suite(.timeLimit(.minutes(10))) struct CucumberExpressionParserTests {
        @Test(
            "Expressions parse into the official syntax tree",
            .conformance("cucumber-expressions"),
            arguments: ConformanceCase.all(in: "cucumber-expression/parser"))
        func conformance(_ testCase: ConformanceCase) throws {
            var parser = CucumberExpressionParser(expression: testCase.expression)
            if let exception = testCase.exception {
                do {
                    let tree = try parser.parse()
                    Issue.record("Expected an error, got \(tree)")
                } catch {
                    #expect(error.message == exception)
                }
                return
            }
            let expected = try #require(testCase.json["expected_ast"])
            #expect(Self.json(try parser.parse()) == expected)
        }

        static func json(_ node: CucumberExpressionNode) -> FixtureJSON {
            var object: [String: FixtureJSON] = [
                "type": .string(node.kind.rawValue), "start": .int(Int64(node.start)),
                "end": .int(Int64(node.end)),
            ]
            if let token = node.token {
                object["token"] = .string(token)
            } else {
                object["nodes"] = .array(node.nodes.map(json))
            }
            return .object(object)
        }
    }
}
