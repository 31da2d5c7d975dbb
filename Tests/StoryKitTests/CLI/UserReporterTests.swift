import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

/// A report of a user's own, written against the public API only: one line
/// per failed story, then a count.
private struct FailureCounter: Reporter {
    let lines: LineBox
    var failed: [String] = []

    mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result) where result.status == .failed:
            failed.append("\(result.story.name) at \(result.story.location.line): \(result.firstFailure?.error?.message ?? "")")
        case .runFinished(let summary):
            failed.append("\(summary.stories[.failed, default: 0]) failed, \(summary.notRun) not run")
        default: break
        }
    }

    mutating func finish() throws {
        lines.lines = failed
        if failed.contains("throw") { throw CocoaError(.fileWriteUnknown) }
    }
}

private final class LineBox: @unchecked Sendable {
    var lines: [String] = []
}

private struct FailingReporter: Reporter {
    mutating func handle(_ event: RunEvent) {}
    mutating func finish() throws { throw Diagnostic(at: nil, problem: "cannot write the dashboard") }
}

@Suite(.timeLimit(.minutes(10))) struct UserReporterTests {
    @Test("A reporter of the user's own gets the run's events and finishes with the others")
    func userReporter() async {
        let box = LineBox()
        var output: [String] = []
        let status = await StoryRun.run(
            arguments: [Golden.fixture("stories/control/many.stories")], steps: StoryrunSteps.fixtures,
            reporters: [FailureCounter(lines: box)], clock: { 0 }, output: { output.append($0) })
        #expect(status == .storyFailed)
        #expect(box.lines.count == 2, "\(box.lines)")
        #expect(box.lines.first?.hasPrefix("Second of many at 7: number of pears: expected 2, got 0") == true, "\(box.lines)")
        #expect(box.lines.last == "1 failed, 0 not run")
        // The built-in summary still runs beside it.
        #expect(output.contains("Stories: 3 passed, 1 failed"))
    }

    @Test("A user reporter whose finish throws makes the run exit 2 with its message")
    func failingReporter() async {
        var output: [String] = []
        let status = await StoryRun.run(
            arguments: [Golden.fixture("stories/control/many.stories")], steps: StoryrunSteps.fixtures,
            reporters: [FailingReporter()], clock: { 0 }, output: { output.append($0) })
        #expect(status == .inputError)
        #expect(output.contains { $0.contains("cannot write the dashboard") })
    }
}
