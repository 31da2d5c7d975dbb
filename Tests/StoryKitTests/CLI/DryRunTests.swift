import Foundation
import StoryrunSteps
import Synchronization
import Testing
@testable import StoryKit

/// Steps whose run hooks count how often they run.
final class CountedRunHookSteps: StepDefinitions {
    static let runs = Mutex(0)

    required init() {}

    static func define(_ step: StepMap<CountedRunHookSteps>) {
        step.beforeRun { runs.withLock { $0 += 1 } }
        step.afterRun { runs.withLock { $0 += 1 } }
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct DryRunTests {
    @Test("--dry-run runs no before-run or after-run hook")
    func noHooks() async {
        CountedRunHookSteps.runs.withLock { $0 = 0 }
        let status = await StoryRun.run(
            arguments: ["--dry-run", Golden.fixture("stories/good/basket.stories")],
            steps: StoryrunSteps.fixtures + [CountedRunHookSteps.self], output: { _ in })
        #expect(status == .success)
        #expect(CountedRunHookSteps.runs.withLock { $0 } == 0)
        _ = await StoryRun.run(
            arguments: [Golden.fixture("stories/good/basket.stories")],
            steps: StoryrunSteps.fixtures + [CountedRunHookSteps.self], output: { _ in })
        #expect(CountedRunHookSteps.runs.withLock { $0 } == 2)
    }

    @Test("--dry-run --strict exits 1 on undefined and ambiguous steps, as a real run does", arguments: [
        "undefined.stories", "ambiguous.stories",
    ])
    func strict(file: String) async {
        let path = Golden.fixture("stories/good/" + file)
        let run = await StoryRun.run(arguments: ["--dry-run", "--strict", path], steps: StoryrunSteps.fixtures, output: { _ in })
        let real = await StoryRun.run(arguments: ["--strict", path], steps: StoryrunSteps.fixtures, output: { _ in })
        #expect(run == .storyFailed)
        #expect(real == .storyFailed)
        #expect(await StoryRun.run(arguments: ["--dry-run", path], steps: StoryrunSteps.fixtures, output: { _ in }) == .success)
    }
}
