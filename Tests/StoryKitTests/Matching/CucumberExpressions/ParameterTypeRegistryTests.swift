import Testing

@testable import StoryKit

extension CucumberExpressionsTests {
    @Suite(.timeLimit(.minutes(10))) struct ParameterTypeRegistryTests {
        @Test("A new registry holds every official built-in type, in order")
        func builtIns() {
            let names = ParameterTypeRegistry().parameterTypes.map(\.name)
            #expect(
                names == [
                    "int", "float", "word", "string", "", "double", "bigdecimal", "byte", "short",
                    "long", "biginteger",
                ])
        }

        @Test("Built-in types convert to their Swift types")
        func builtInValues() throws {
            let expression = try CucumberExpression(
                "{int} {float} {double} {byte} {short} {long} {biginteger} {bigdecimal} {word} {string} {}"
            )
            let arguments = try #require(
                try expression.match(#"1 2.5 3.5 4 5 6 7 8.5 nine "ten" eleven"#))
            #expect(arguments[0].value as? Int == 1)
            #expect(arguments[1].value as? Float == 2.5)
            #expect(arguments[2].value as? Double == 3.5)
            #expect(arguments[3].value as? Int8 == 4)
            #expect(arguments[4].value as? Int16 == 5)
            #expect(arguments[5].value as? Int64 == 6)
            #expect(arguments[6].value as? BigNumber == BigNumber("7"))
            #expect(arguments[7].value as? BigNumber == BigNumber("8.5"))
            #expect(arguments[8].value as? String == "nine")
            #expect(arguments[9].value as? String == "ten")
            #expect(arguments[10].value as? String == "eleven")
            #expect(arguments[9].text == #""ten""#)
            #expect(arguments.map(\.parameterTypeName).last == "")
        }

        @Test("A user-defined type gets the texts of its regexp's capture groups")
        func userDefinedType() throws {
            struct Point: Sendable, Equatable {
                var x: Int
                var y: Int
            }
            var registry = ParameterTypeRegistry()
            try registry.define(
                ParameterType(name: "point", regexps: [#"(\d+),(\d+)"#]) { groups in
                    Point(x: Int(groups[0] ?? "") ?? 0, y: Int(groups[1] ?? "") ?? 0)
                })
            let expression = try CucumberExpression("go to {point}", parameterTypes: registry)
            #expect(expression.regexPattern == #"^go to ((\d+),(\d+))$"#)
            let arguments = try #require(try expression.match("go to 3,4"))
            #expect(arguments.count == 1)
            #expect(arguments[0].value as? Point == Point(x: 3, y: 4))
            #expect(arguments[0].text == "3,4")
            #expect(registry.parameterType(named: "point")?.typeName == "Point")
        }

        @Test(
            "Bad definitions are refused with the official message",
            arguments: [
                (
                    "a(b",
                    #"Illegal character in parameter name {a(b}. Parameter names may not contain '{', '}', '(', ')', '\' or '/'"#
                ),
                ("int", "There is already a parameter type with name int"),
                ("", "The anonymous parameter type has already been defined"),
            ])
        func badDefinition(name: String, message: String) {
            var registry = ParameterTypeRegistry()
            do {
                try registry.define(ParameterType(name: name, regexps: ["x"]) { $0 })
                Issue.record("Expected an error")
            } catch {
                #expect(error.message == message)
            }
        }

        @Test("Two preferred types may not share a regexp")
        func twoPreferredTypes() {
            var registry = ParameterTypeRegistry()
            do {
                try registry.define(
                    ParameterType(name: "number", regexps: [#"\d+"#], preferForRegexpMatch: true) {
                        $0
                    }
                )
                Issue.record("Expected an error")
            } catch {
                #expect(
                    error.message
                        == #"There can only be one preferential parameter type per regexp. The regexp /\d+/ is used for two preferential parameter types, {int} and {number}"#
                )
            }
        }
    }

}

extension CucumberExpressionsTests.ParameterTypeRegistryTests {
    @Test("Decimal digits of any script convert, as in the official Python implementation")
    func unicodeDigits() throws {
        let arguments = try #require(try CucumberExpression("{int} {biginteger}").match("٣٤ -٥"))
        #expect(arguments[0].value as? Int == 34)
        #expect(arguments[1].value as? BigNumber == BigNumber("-5"))
        #expect(arguments[0].text == "٣٤")
    }
}
