import Foundation
import Testing
@testable import StoryKit

/// Every parser and matcher that recurses refuses input deeper than its
/// limit with its own error type, instead of running off the end of the stack.
@Suite(.timeLimit(.minutes(10))) struct DepthLimitTests {
    static func nested(_ depth: Int, open: String = "(", close: String = ")", inner: String = "a") -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    @Test("A Cucumber expression with optionals nested past 256 is an error, at the first too-deep '('")
    func cucumberExpression() {
        for depth in [257, 2_000, 50_000] {
            #expect {
                _ = try CucumberExpression(Self.nested(depth))
            } throws: { error in
                let error = error as? CucumberExpressionError
                return error?.problem == "Optionals may not be nested more than 256 deep" && error?.column == 257
            }
        }
        // At the limit the official error still comes: an optional in an optional.
        #expect {
            _ = try CucumberExpression(Self.nested(256))
        } throws: { error in
            (error as? CucumberExpressionError)?.problem == "An optional may not contain an other optional"
        }
    }

    @Test("Capture-group nesting is measured without building the tree; a deep regex is an error")
    func regexGroups() {
        #expect(GroupShape.nestingDepth(of: "(a(?:b(c)))") == 2)
        #expect(GroupShape.nestingDepth(of: #"\((a)\)[(]"#) == 1)
        #expect(GroupShape.nestingDepth(of: Self.nested(300)) == 300)
        #expect(GroupShape.nestingDepth(of: Self.nested(300, open: "(?:")) == 0)
        for depth in [300, 60_000] {
            #expect(throws: CucumberExpressionError.self) { _ = try RegularExpression(Self.nested(depth)) }
        }
        #expect(throws: Never.self) { _ = try RegularExpression(Self.nested(20)) }
    }

    @Test("The fast regex matcher loops over literals and hands patterns of many groups to ICU")
    func simpleRegex() throws {
        let long = String(repeating: "ab", count: 100_000)
        let regex = try #require(SimpleRegex("^" + long + "$"))
        #expect(regex.captures(in: long) == [])
        #expect(regex.captures(in: long + "x") == nil)
        #expect(SimpleRegex(String(repeating: #"(\d+) "#, count: SimpleRegex.groupLimit)) != nil)
        #expect(SimpleRegex(String(repeating: #"(\d+) "#, count: SimpleRegex.groupLimit + 1)) == nil)
    }

    @Test("A tag expression deeper than 1,000 is a syntax error; 1,000 deep parses and evaluates")
    func tagExpressions() throws {
        for text in [
            String(repeating: "not ", count: 30_000) + "@a",
            Array(repeating: "@a", count: 5_000).joined(separator: " and "),
            Self.nested(2_000, open: "(not ", inner: "@a"),
        ] {
            #expect {
                _ = try TagExpression(text)
            } throws: { error in
                (error as? TagExpressionError)?.message.contains("Nested more than 1000 deep") == true
            }
        }
        let deep = try TagExpression(String(repeating: "not ", count: 999) + "@a")
        #expect(deep.evaluate(["@a"]) == false)
        let chain = try TagExpression(Array(repeating: "@a", count: 1_000).joined(separator: " or "))
        #expect(chain.evaluate(["@a"]))
        #expect(try TagExpression(Self.nested(30_000, inner: "@a")) == .tag("@a"))
    }
}
