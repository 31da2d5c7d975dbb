import Foundation
import Testing
@testable import StoryKit

/// The rerun file when a run hook failed: every story that ran is listed,
/// though the reporter keeps only a file and a line for each.
@Suite(.timeLimit(.minutes(10))) struct RerunReporterTests {
    static func finished(_ file: String, _ line: Int, _ status: StoryStatus = .passed) -> RunEvent {
        let story = Story(name: "s\(line)", location: SourceLocation(file: file, line: line), steps: [])
        return .storyFinished(StoryResult(story: story, status: status, testSteps: [], duration: 0))
    }

    static func text(failedHooks: Int, _ events: [RunEvent]) -> String {
        var reporter = RerunReporter(path: "unused.txt")
        for event in events { reporter.handle(event) }
        var summary = RunSummary()
        summary.failedHooks = failedHooks
        reporter.handle(.runFinished(summary))
        return reporter.text
    }

    static let events = [
        finished("a.stories", 3), finished("a.stories", 9), finished("b.stories", 4, .failed),
        finished("b.stories", 7), finished("a.stories", 12), finished("c.stories", 2),
    ]

    @Test("After a failed run hook, every story that ran is listed, files in the order they came, a story once")
    func everyStoryAfterFailedHook() {
        #expect(Self.text(failedHooks: 1, Self.events) == "b.stories:4:7\na.stories:3:9:12\nc.stories:2\n")
    }

    @Test("Without a failed hook, only the failed stories are listed")
    func onlyFailures() {
        #expect(Self.text(failedHooks: 0, Self.events) == "b.stories:4\n")
    }
}
