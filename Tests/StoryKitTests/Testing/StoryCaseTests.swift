import Synchronization
import Testing
import StoryKit
@testable import StoryKitTesting
import StoryrunSteps

/// storyrun's own fixture stories that pass, run as Swift Testing test
/// cases: one test case per story, named after it.
@Suite(.timeLimit(.minutes(10))) struct StoryCaseTests {
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

/// Counts the run hooks a test process runs.
final class ProcessHookSteps: StepDefinitions {
    static let counts = Mutex(0)

    required init() {}

    static func define(_ step: StepMap<ProcessHookSteps>) {
        step.beforeRun { counts.withLock { $0 += 1 } }
    }
}

@Suite(.timeLimit(.minutes(10))) struct StoryCaseProblemTests {
    @Test("A story file with a bad line is a failing case naming file:line:col and the problem")
    func badFile() async throws {
        let cases = StoryCase.all(in: "Fixtures/stories/bad/unknown-keyword.stories")
        let bad = try #require(cases.first { $0.diagnostic != nil })
        #expect(bad.story.location.line == 3 && bad.story.location.column == 1)
        #expect(bad.testDescription.contains("\"Whe\" is not a step keyword"))
        #expect(cases.contains { $0.story.name == "A good story after a bad one" })
        await withKnownIssue {
            await bad.run(steps: StoryrunSteps.fixtures)
        } matching: { issue in
            issue.sourceLocation?.line == 3 && issue.sourceLocation?.column == 1
                && issue.comments.contains { $0.rawValue.contains("unknown-keyword.stories:3:1: error:") }
        }
    }

    @Test("A missing story file is a failing case too")
    func missingFile() {
        let cases = StoryCase.all(in: "Fixtures/stories/no-such-file.stories")
        #expect(cases.count == 1)
        #expect(cases.first?.diagnostic?.problem.contains("no such file or folder") == true)
    }

    @Test("An undefined step's issue carries the snippet that would define it")
    func snippet() async throws {
        let undefined = try #require(StoryCase.all(in: "Fixtures/stories/good/undefined.stories").first)
        let problems = await undefined.problems(steps: StoryrunSteps.fixtures, strict: false)
        #expect(problems.first?.message.contains("step(#\"^") == true)
        #expect(problems.first?.message.contains("try pending(\"not written yet\")") == true)
    }

    @Test("Before-run hooks run once per test process, however many stories run")
    func runHooksOnce() async {
        let cases = StoryCase.all(in: "Fixtures/stories/good/basket.stories")
        await withTaskGroup(of: Void.self) { group in
            for story in cases + cases {
                group.addTask { await story.run(steps: StoryrunSteps.fixtures + [ProcessHookSteps.self]) }
            }
        }
        #expect(ProcessHookSteps.counts.withLock { $0 } == 1)
    }
}
