import Foundation
import Testing

@testable import StoryKit

extension CucumberExpressionsTests {
    @Suite(.timeLimit(.minutes(10))) struct CucumberExpressionTests {
        @Test(
            "Expressions turn into the official regular expressions",
            .conformance("cucumber-expressions"),
            arguments: ConformanceCase.all(in: "cucumber-expression/transformation"))
        func transformation(_ testCase: ConformanceCase) throws {
            let expected = try #require(testCase.json["expected_regex"]?.string)
            #expect(try CucumberExpression(testCase.expression).regexPattern == expected)
        }

        @Test(
            "Expressions match texts into the official arguments, or fail with the official message",
            .conformance("cucumber-expressions"),
            arguments: ConformanceCase.all(in: "cucumber-expression/matching"))
        func matching(_ testCase: ConformanceCase) throws {
            let text = testCase.json["text"]?.string ?? ""
            if let exception = testCase.exception {
                do {
                    let arguments = try CucumberExpression(testCase.expression).match(text)
                    Issue.record("Expected an error, got \(String(describing: arguments))")
                } catch {
                    #expect(error.message == exception)
                }
                return
            }
            let arguments = try CucumberExpression(testCase.expression).match(text)
            try Self.expect(arguments, equal: testCase.json["expected_args"])
        }

        @Test("A match must cover the whole text, even a final line break")
        func wholeText() throws {
            let expression = try CucumberExpression("a {int}")
            #expect(try expression.match("a 1\n") == nil)
            #expect(try expression.match("xa 1") == nil)
            #expect(try expression.match("a 1")?.count == 1)
        }

        @Test("An undefined parameter type is named in the error")
        func undefinedParameterType() {
            do {
                _ = try CucumberExpression("I have {color} shoes")
                Issue.record("Expected an error")
            } catch {
                #expect(error.undefinedParameterTypeName == "color")
                #expect(error.column == 8)
            }
        }

        @Test("A number that doesn't fit its type fails the match with its text")
        func conversionFailure() {
            do {
                _ = try CucumberExpression("{byte}").match("300")
                Issue.record("Expected an error")
            } catch {
                #expect(error.message == "Can't convert '300' to Int8 for parameter type {byte}")
            }
        }

        /// Compares arguments with the fixture's `expected_args`, by the value's
        /// Swift type.
        static func expect(
            _ arguments: [CucumberArgument]?, equal expected: FixtureJSON?,
            sourceLocation: Testing.SourceLocation = #_sourceLocation
        ) throws {
            guard let expected = expected?.array else {
                #expect(arguments == nil, sourceLocation: sourceLocation)
                return
            }
            let arguments = try #require(
                arguments as [CucumberArgument]?, sourceLocation: sourceLocation)
            #expect(arguments.count == expected.count, sourceLocation: sourceLocation)
            for (argument, value) in zip(arguments, expected) {
                #expect(
                    matches(argument.value, value),
                    "\(String(describing: argument.value)) is not \(value)",
                    sourceLocation: sourceLocation)
            }
        }

        static func matches(_ actual: (any Sendable)?, _ expected: FixtureJSON) -> Bool {
            switch (actual, expected) {
            case (nil, .null): true
            case (let value as String, .string(let string)): value == string
            case (let value as BigNumber, .string(let string)): value.text == string
            case (let value as any BinaryInteger, .int(let int)): Int64(exactly: value) == int
            case (let value as Float, .double(let double)): value == Float(double)
            case (let value as Float, .int(let int)): value == Float(int)
            case (let value as Double, .double(let double)): value == double
            case (let value as Double, .int(let int)): value == Double(int)
            default: false
            }
        }
    }
}
