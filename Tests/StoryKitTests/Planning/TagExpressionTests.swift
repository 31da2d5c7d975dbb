import Foundation
import Testing
@testable import StoryKit

/// The official tag-expressions test data (`<conformance>/tag-expressions`).
@Suite(.timeLimit(.minutes(10)), .conformance("tag-expressions")) struct TagExpressionTests {
    struct ParsingCase: Decodable, Sendable, CustomTestStringConvertible {
        var expression: String
        var formatted: String
        var testDescription: String { "\"\(expression)\"" }
    }

    struct EvaluationCase: Decodable, Sendable, CustomTestStringConvertible {
        struct Check: Decodable, Sendable { var variables: [String]; var result: Bool }
        var expression: String
        var tests: [Check]
        var testDescription: String { "\"\(expression)\"" }
    }

    struct ErrorCase: Decodable, Sendable, CustomTestStringConvertible {
        var expression: String
        var error: String
        var testDescription: String { "\"\(expression)\"" }
    }

    static func load<T: Decodable>(_ name: String) -> [T] {
        guard let text = try? String(contentsOfFile: Conformance.path("tag-expressions/\(name).yml"), encoding: .utf8)
        else { return [] }
        return (try? FixtureYAML.parse(text).decode(as: [T].self)) ?? []
    }

    @Test("Every official parsing case prints its canonical form", arguments: load("parsing") as [ParsingCase])
    func parsing(_ test: ParsingCase) throws {
        #expect(try TagExpression(test.expression).description == test.formatted)
    }

    @Test("Every official evaluation case gives its result", arguments: load("evaluations") as [EvaluationCase])
    func evaluation(_ test: EvaluationCase) throws {
        let expression = try TagExpression(test.expression)
        for check in test.tests {
            #expect(expression.evaluate(check.variables) == check.result, "\(check.variables)")
        }
    }

    @Test("Every official error case fails with the official message", arguments: load("errors") as [ErrorCase])
    func errors(_ test: ErrorCase) {
        #expect { try TagExpression(test.expression) } throws: { error in
            (error as? TagExpressionError)?.message == test.error
        }
    }

    @Test("All the official cases are there")
    func counts() {
        #expect((Self.load("parsing") as [ParsingCase]).count == 23)
        #expect((Self.load("evaluations") as [EvaluationCase]).count == 7)
        #expect((Self.load("errors") as [ErrorCase]).count == 15)
    }
}
