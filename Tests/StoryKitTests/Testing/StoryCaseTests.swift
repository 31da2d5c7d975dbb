import Testing
import StoryKit
@testable import StoryKitTesting
import StoryrunSteps

/// storyrun's own fixture stories that pass, run as Swift Testing test
/// cases: one test case per story, named after it.
@Suite struct StoryCaseTests {
    @Test("Each passing fixture story is a test case", arguments: StoryCase.all(in: "Fixtures/stories/good/basket.stories", "Fixtures/stories/good/windows-line-ends.stories"))
    func story(_ story: StoryCase) async {
        await story.run(steps: StoryrunSteps.fixtures)
    }

    @Test("Stories become one test case each, named after the story")
    func cases() {
        let cases = StoryCase.all(in: "Fixtures/stories/good/basket.stories")
        #expect(cases.map(\.testDescription).first?.hasPrefix("Adding apples (") == true)
        #expect(cases.count == 3)
    }

    @Test("A failing story reports its failing step at the step's line")
    func failingStory() async throws {
        let failing = try #require(StoryCase.all(in: "Fixtures/stories/good/failing.stories").first { $0.story.name == "Counting wrong" })
        let problems = await failing.problems(steps: StoryrunSteps.fixtures, strict: false)
        #expect(problems.count == 1)
        #expect(problems.first?.location.line == 9)
        #expect(problems.first?.message.contains("Then the basket holds 3 apples: number of apples: expected 3, got 2") == true)
    }

    @Test("An undefined story reports each undefined step")
    func undefinedStory() async throws {
        let undefined = try #require(StoryCase.all(in: "Fixtures/stories/good/undefined.stories").first)
        let problems = await undefined.problems(steps: StoryrunSteps.fixtures, strict: false)
        #expect(problems.map(\.location.line) == [3, 4])
    }
}
