import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct SuggestionTests {
    @Test("An undefined step with a typo names the definition it probably meant")
    func typo() {
        let (registry, _) = StepRegistryTests.registry([RegistrySteps.self])
        let step = StepRegistryTests.step("Given", "I have 3 itemz")
        #expect(Suggestion.closest(to: step, in: registry.definitions)?.pattern == "^I have (\\d+) items$")
        #expect(Suggestion.closest(to: StepRegistryTests.step("When", "the moon is made of cheese"), in: registry.definitions) == nil)
    }

    @Test("A pattern's skeleton keeps its literal text", arguments: [
        ("^I have (\\d+) items$", "i have x items"),
        (".* I add (\\d+) (.*) to the basket", " i add x x to the basket"),
        ("I have {int} cucumber(s)", "i have x cucumberx"),
    ])
    func skeleton(pattern: String, expected: String) {
        #expect(Suggestion.skeleton(of: pattern) == expected)
    }
}
