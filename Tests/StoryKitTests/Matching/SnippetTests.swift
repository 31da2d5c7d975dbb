import Foundation
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct SnippetTests {
    @Test("Numbers and quoted strings become typed capture groups", arguments: [
        ("I pay 3.50 euros by \"card\"", #"^I pay (-?\d*\.?\d+) euros by "([^"]*)"$"#, ["Double", "String"]),
        ("I have 12 items", #"^I have (-?\d+) items$"#, ["Int"]),
        ("the room 4b is (empty)", #"^the room 4b is \(empty\)$"#, []),
        ("it is -3 degrees", #"^it is (-?\d+) degrees$"#, ["Int"]),
        ("the card '4111-1111' is on file", #"^the card '([^']*)' is on file$"#, ["String"]),
        ("the card 4111-1111 is on file", #"^the card 4111-1111 is on file$"#, []),
        ("a delivery on 2024-05-01 at 12:30", #"^a delivery on 2024-05-01 at 12:30$"#, []),
        ("the customer's name is 'Ann'", #"^the customer's name is '([^']*)'$"#, ["String"]),
    ])
    func shapes(text: String, pattern: String, types: [String]) {
        let snippet = Snippet(for: Step(keyword: "When", kind: .action, text: text, location: .init(file: "f", line: 1)))
        #expect(snippet.pattern == pattern)
        #expect(snippet.parameterTypes == types)
    }

    @Test("A snippet's pattern compiles and matches the step it was made for")
    func snippetMatches() throws {
        let step = Step(keyword: "When", kind: .action, text: "I pay 3.50 euros by \"card\" (twice)", location: .init(file: "f", line: 1))
        let pattern = try Pattern(regex: Snippet(for: step).pattern)
        #expect(pattern.captures(in: step.text) == ["3.50", "card"])
    }

    @Test("Steps of the same shape share one snippet")
    func sameShape() {
        func snippet(_ text: String) -> Snippet {
            Snippet(for: Step(keyword: "Given", kind: .context, text: text, location: .init(file: "f", line: 1)))
        }
        #expect(snippet("I have 3 apples") == snippet("I have 12 apples"))
        #expect(snippet("I have 3 apples") != snippet("I have 3 pears"))
    }

    static func step(_ text: String, kind: Step.Kind = .action, keyword: String = "When", attachment: StepAttachment? = nil) -> Step {
        var step = Step(keyword: keyword, kind: kind, text: text, location: .init(file: "f", line: 1))
        step.attachment = attachment
        return step
    }

    @Test("A step with a table or a doc string gets a DataTable or DocString parameter")
    func attachments() {
        let table = Self.step("the shelf holds:", attachment: .dataTable(DataTable(rows: [["a"]], location: .init(file: "f", line: 2))))
        #expect(Snippet(for: table).code().contains("(steps: YourSteps, table: DataTable) in"))
        let doc = Self.step("the letter says:", attachment: .docString(DocString(content: "Hi", location: .init(file: "f", line: 2))))
        #expect(Snippet(for: doc).code().contains("(steps: YourSteps, docString: DocString) in"))
    }

    @Test("A Cucumber Expression snippet writes {int}, {float} and {string}, with ( and { escaped")
    func expressionStyle() throws {
        let snippet = Snippet(for: Self.step("I pay 3.50 euros for 2 'apples' (cash)"), stepClass: "ShopSteps", style: .expression)
        #expect(snippet.pattern == #"I pay {float} euros for {int} {string} \(cash\)"#)
        #expect(snippet.code().hasPrefix(##"step.expression(#"I pay {float} euros for {int} {string} \(cash\)"#) { (steps: ShopSteps, double1: Double, int2: Int, string3: String) in"##))
        let expression = try CucumberExpression(snippet.pattern, parameterTypes: ParameterTypeRegistry())
        #expect(expression.parameterTypes.count == 3)
    }

    @Test("The snippet for an As line says every line is a step, and how to accept them all")
    func roleLine() {
        let code = Snippet(for: Self.step("a shop owner", kind: .role, keyword: "As")).code()
        #expect(code.hasPrefix("// Every line of a story is a step, `As` lines too (Simon's rule)"))
        #expect(code.contains("step.acceptsRoles()"))
    }

    @Test("The snippet names the project's step class: the only one, or the one whose definitions share most words with the step")
    func stepClass() {
        let builder = RegistryBuilder()
        builder.register([CountingSteps.self])
        #expect(Snippet.stepClass(for: Self.step("the moon is full"), in: builder.freeze()) == "CountingSteps")
        let two = RegistryBuilder()
        two.register([CountingSteps.self, PendingSkipSteps.self])
        let registry = two.freeze()
        #expect(Snippet.stepClass(for: Self.step("a pending step with a twist"), in: registry) == "PendingSkipSteps")
        #expect(Snippet.stepClass(for: Self.step("remember nothing"), in: registry) == "CountingSteps")
        #expect(Snippet.stepClass(for: Self.step("the moon is full"), in: registry) == "CountingSteps")
    }

    @Test("step.acceptsRoles() defines every As line in one line")
    func acceptsRoles() {
        let builder = RegistryBuilder()
        builder.register([RoleSteps.self])
        let registry = builder.freeze()
        #expect(!registry.matches(Self.step("a shop owner", kind: .role, keyword: "As")).isUndefined)
        #expect(registry.matches(Self.step("a shop owner", kind: .context, keyword: "Given")).isUndefined)
    }
}

extension SnippetTests {
    @Test("A snippet types numbers as the project's own steps do: Decimal for decimals when a step takes a Decimal")
    func numbersFollowTheProject() throws {
        let builder = RegistryBuilder()
        builder.register([MoneySteps.self])
        let registry = builder.freeze()
        let snippet = Snippet.suggested(for: Self.step("I pay 2.5 euros for 3 apples"), in: registry)
        #expect(snippet.parameterTypes == ["Decimal", "Int"])
        #expect(snippet.code().contains("(steps: MoneySteps, decimal1: Decimal, int2: Int) in"), "\(snippet.code())")
        let captured = try #require(try Pattern(regex: snippet.pattern).captures(in: "I pay 2.5 euros for 3 apples")?.first ?? nil)
        #expect(Decimal(stepArgument: captured) == Decimal(string: "2.5"))
        let expression = Snippet.suggested(for: Self.step("I pay 2.5 euros"), in: registry, style: .expression)
        #expect(expression.pattern == "I pay {float} euros")
        #expect(expression.parameterTypes == ["Decimal"])
        // A project whose steps take no Decimal keeps Double.
        let plain = RegistryBuilder()
        plain.register([CountingSteps.self])
        #expect(Snippet.suggested(for: Self.step("I pay 2.5 euros"), in: plain.freeze()).parameterTypes == ["Double"])
    }

    @Test("A number with a decimal comma and two decimals is one parameter, and the snippet says how to read it", arguments: [
        ("I pay 10,50 euros", #"^I pay (-?\d+,\d+) euros$"#, ["String"]),
        ("the total is 10,50", #"^the total is (-?\d+,\d+)$"#, ["String"]),
        ("I pay 1,000 euros", #"^I pay (-?\d+),(-?\d+) euros$"#, ["Int", "Int"]),
        ("the points 1,50,70", #"^the points (-?\d+),(-?\d+),(-?\d+)$"#, ["Int", "Int", "Int"]),
    ])
    func commaDecimal(text: String, pattern: String, types: [String]) throws {
        let snippet = Snippet(for: Self.step(text))
        #expect(snippet.pattern == pattern)
        #expect(snippet.parameterTypes == types)
        #expect(try Pattern(regex: snippet.pattern).captures(in: text)?.count == types.count)
        #expect(snippet.code().contains("decimal comma") == (types == ["String"]), "\(snippet.code())")
    }

    @Test("A comma decimal in a Cucumber Expression snippet is one anonymous parameter")
    func commaDecimalExpression() throws {
        let snippet = Snippet(for: Self.step("I pay 10,50 euros"), style: .expression)
        #expect(snippet.pattern == "I pay {} euros")
        #expect(snippet.code().contains("string1 is one number written with a decimal comma"))
        let expression = try CucumberExpression(snippet.pattern, parameterTypes: ParameterTypeRegistry())
        #expect(expression.parameterTypes.count == 1)
    }
}

final class MoneySteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<MoneySteps>) {
        step(#"^my balance is (-?\d*\.?\d+) euros$"#) { (_: MoneySteps, _: Decimal) in }
        step(#"^I owe (-?\d*\.?\d+) euros$"#) { (_: MoneySteps, _: Double) in }
        step(#"^I owe (-?\d*\.?\d+) pounds$"#) { (_: MoneySteps, _: Double) in }
    }
}

final class RoleSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<RoleSteps>) { step.acceptsRoles() }
}
