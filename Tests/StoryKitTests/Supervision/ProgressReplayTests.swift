import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

/// A supervised parent learns a story's steps from its worker's answer, and
/// replays them as the events an in-process run emits while the story runs
/// (``SupervisedRun/replayProgress(of:emit:)``): a reporter of the user's
/// own sees one stream whichever way stories run. Before, the supervised
/// stream had no `stepStarted` at all.
@Suite(.timeLimit(.minutes(10))) struct ProgressReplayTests {
    /// Every event of a run, as text.
    private struct Recorder: Reporter {
        let box: Box
        mutating func handle(_ event: RunEvent) {
            switch event {
            case .storyStarted(let story): box.lines.append("story \(story.name)")
            case .stepStarted(let step): box.lines.append("start \(step.text)")
            case .stepFinished(let result): box.lines.append("end \(result.step.text) \(result.status) \(result.error == nil)")
            case .storyFinished(let result):
                box.lines.append("finished")
                box.results.append(result)
            default: break
            }
        }
    }

    private final class Box: @unchecked Sendable {
        var lines: [String] = []
        var results: [StoryResult] = []
    }

    @Test("The replay of each story's result is what the in-process run emitted while it ran",
          arguments: ["failing.stories", "pending-and-skipped.stories", "undefined.stories", "ambiguous.stories", "basket.stories", "store.stories"])
    func replayMatchesInProcess(file: String) async throws {
        let box = Box()
        _ = await StoryRun.run(
            arguments: ["--in-process", "--strict", Golden.fixture("stories/good/" + file)], steps: StoryrunSteps.fixtures,
            reporters: [Recorder(box: box)], clock: { 0 }, output: { _ in })
        try #require(!box.results.isEmpty)
        // What the replay gives for every story, from the results alone.
        let replayed = Box()
        var recorder = Recorder(box: replayed)
        for result in box.results {
            SupervisedRun.replayProgress(of: result) { recorder.handle($0) }
            recorder.handle(.storyFinished(result))
        }
        // The one difference the replay cannot see: a step that called
        // skip() without a reason started, but its result is that of a
        // step skipped before it ran.
        var ran = box.lines
        for index in ran.indices.reversed() where ran[index].hasPrefix("start ") && index + 1 < ran.count {
            let text = ran[index].dropFirst("start ".count)
            if ran[index + 1] == "end \(text) skipped true" { ran.remove(at: index) }
        }
        #expect(replayed.lines == ran)
        #expect(ran.contains { $0.hasPrefix("start ") } || file == "undefined.stories", "\(ran)")
    }
}
