import Testing
@testable import StoryKit

enum Flavour: String, StepArgument { case sweet, sour }

final class ExpressionSteps: StepDefinitions {
    var total = 0
    required init() {}
    static func define(_ step: StepMap<ExpressionSteps>) {
        step.parameterType("flavour", regexps: ["sweet|sour"]) { groups in Flavour(rawValue: groups[0] ?? "")! }
        step.expression("I have {int} {flavour} cucumber(s) in my {word}") { (steps: ExpressionSteps, count: Int, flavour: Flavour, place: String) in
            steps.total += count
            try expect(flavour == .sweet || flavour == .sour)
        }
        step.expression("I have {byte} boxes") { (steps: ExpressionSteps, count: Int8) in }
        step.expression("the total is {int}") { (steps: ExpressionSteps, count: Int) in try expectEqual(steps.total, count) }
        step.expression("I say {string}") { (steps: ExpressionSteps, text: String) in try expectEqual(text, "hello world") }
    }
}

final class BadExpressionSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<BadExpressionSteps>) {
        step.expression("I have {int} and {int}") { (_: BadExpressionSteps, count: Int) in }
        step.expression("I have {unknown}") { (_: BadExpressionSteps, count: Int) in }
        step.expression("I have (") { _ in }
    }
}

@Suite(.timeLimit(.minutes(10))) struct ExpressionStepTests {
    static func step(_ text: String) -> Step {
        Step(keyword: "Given", kind: .context, text: text, location: .init(file: "t.stories", line: 1))
    }

    @Test("An expression matches the whole text after the keyword, case-sensitively, with typed values")
    func matching() {
        let (registry, diagnostics) = StepRegistryTests.registry([ExpressionSteps.self])
        #expect(diagnostics.isEmpty)
        let match = registry.matches(Self.step("I have 3 sweet cucumbers in my basket")).winner
        #expect(match?.definition.syntax == .expression)
        #expect(match?.capturedTexts == ["3", "sweet", "basket"])
        #expect(registry.matches(Self.step("I have 1 sour cucumber in my bag")).winner != nil)
        #expect(registry.matches(Self.step("i have 3 sweet cucumbers in my basket")).isUndefined)
        #expect(registry.matches(Self.step("I have 3 sweet cucumbers in my basket now")).isUndefined)
        // The group's text keeps its quotes; the value the closure gets does not.
        #expect(registry.matches(Self.step("I say \"hello world\"")).winner?.capturedTexts == ["\"hello world\""])
    }

    @Test("Expression steps run with converted values, and an unconvertible one fails its step")
    func running() async {
        let source = """
            Story: cucumbers
            Given I have 3 sweet cucumbers in my basket
            And I have 2 sour cucumbers in my bag
            Then the total is 5
            And I say "hello world"
            Story: too many boxes
            Given I have 300 boxes
            Then the total is 0
            """
        let builder = RegistryBuilder()
        builder.register([ExpressionSteps.self])
        var runner = Runner(registry: builder.freeze(), configuration: .init(), now: { 0 })
        var results: [StoryResult] = []
        _ = await runner.run(StoriesParser.parse(source, path: "t.stories").stories) { event in
            if case .storyFinished(let result) = event { results.append(result) }
        }
        #expect(results.map(\.status) == [.passed, .failed])
        #expect(results.last?.steps.first?.error?.message == #"argument 1 "300" of "Given I have 300 boxes" (t.stories:7) is not an Int8"#)
    }

    @Test("Bad expressions are rejected at registration with their Swift line")
    func registrationErrors() {
        let (_, diagnostics) = StepRegistryTests.registry([BadExpressionSteps.self])
        #expect(diagnostics.count == 2)
        #expect(diagnostics.map { $0.location?.line ?? 0 } == [24, 26])
        #expect(diagnostics[0].problem.contains("has 2 parameters but its closure takes 1 argument"))
    }

    @Test("An expression with an undefined parameter type is left out with a warning, not rejected: the run goes on, its steps undefined")
    func undefinedParameterType() throws {
        let (registry, _) = StepRegistryTests.registry([BadExpressionSteps.self])
        let undefined = try #require(registry.undefinedParameterTypes.first)
        #expect(registry.undefinedParameterTypes.count == 1)
        #expect(undefined.name == "unknown")
        #expect(undefined.expression == "I have {unknown}")
        #expect(undefined.location.line == 25)
        let warning = undefined.diagnostic
        #expect(warning.severity == .warning)
        #expect(warning.problem.contains("{unknown}"))
        #expect(warning.help?.contains("parameterType(\"unknown\"") == true)
        #expect(!registry.definitions.contains { $0.pattern == "I have {unknown}" })
        #expect(registry.matches(StepRegistryTests.step("Given", "I have 3")).matches.isEmpty)
    }
}
