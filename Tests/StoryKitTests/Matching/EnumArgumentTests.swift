import Testing
@testable import StoryKit

enum Tier: String, StepArgument, CaseIterable { case member, guest }
enum Mark: String, StepArgument { case x = "X", o = "O" }

final class TierSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<TierSteps>) {
        step("^the customer is a (\\w+)$") { (_: TierSteps, _: Tier) in }
        step("^(\\w+) plays$") { (_: TierSteps, _: Mark) in }
    }
}

@Suite(.timeLimit(.minutes(10))) struct EnumArgumentTests {
    static func error(_ text: String) async -> String? {
        let builder = RegistryBuilder()
        builder.register([TierSteps.self])
        let (stories, _) = StoriesParser.parse("Story: s\nGiven \(text)", path: "t.stories")
        var runner = Runner(registry: builder.freeze(), configuration: .init(), now: { 0 })
        var message: String?
        _ = await runner.run(stories) { event in
            if case .storyFinished(let result) = event { message = result.steps.first?.error?.message }
        }
        return message
    }

    @Test("A CaseIterable enum converts in any case, and its conversion error lists the valid values")
    func caseIterable() async {
        #expect(await Self.error("the customer is a MeMbEr") == nil)
        let message = await Self.error("the customer is a gold")
        #expect(message?.hasSuffix(#"is not a Tier; valid values: "member", "guest" (any case)"#) == true, "\(message ?? "")")
    }

    @Test("An enum converts from its raw value or the text in lower case, not from its case name")
    func rawValues() async {
        #expect(await Self.error("X plays") == nil)
        #expect(await Self.error("x plays")?.hasSuffix("is not a Mark") == true)
    }
}
