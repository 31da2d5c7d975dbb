import Testing

@testable import StoryKit

extension CucumberExpressionsTests {
    @Suite(.timeLimit(.minutes(10))) struct CucumberExpressionTokenizerTests {
        @Test(
            "Expressions split into the official tokens",
            .conformance("cucumber-expressions"),
            arguments: ConformanceCase.all(in: "cucumber-expression/tokenizer"))
        func conformance(_ testCase: ConformanceCase) throws {
            let tokenizer = CucumberExpressionTokenizer(expression: testCase.expression)
            if let exception = testCase.exception {
                #expect(throws: CucumberExpressionError.self) { try tokenizer.tokenize() }
                do {
                    _ = try tokenizer.tokenize()
                } catch {
                    #expect(error.message == exception)
                }
                return
            }
            let expected = try #require(testCase.json["expected_tokens"]?.array)
            let tokens = try tokenizer.tokenize()
            #expect(tokens.map(Self.json) == expected)
        }

        static func json(_ token: CucumberExpressionToken) -> FixtureJSON {
            .object([
                "type": .string(token.kind.rawValue), "start": .int(Int64(token.start)),
                "end": .int(Int64(token.end)), "text": .string(token.text),
            ])
        }
    }
}
