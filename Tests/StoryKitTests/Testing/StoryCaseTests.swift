import Testing
import StoryKit
import StoryKitTesting
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

    @Test("A failing story records an issue at the failing step's line")
    func failingStory() async throws {
        let failing = try #require(StoryCase.all(in: "Fixtures/stories/good/failing.stories").first { $0.story.name == "Counting wrong" })
        await withKnownIssue {
            await failing.run(steps: StoryrunSteps.fixtures)
        } matching: { issue in
            issue.sourceLocation?.line == 9 && issue.comments.first?.rawValue.contains("expected 3, got 2") == true
        }
    }
}
