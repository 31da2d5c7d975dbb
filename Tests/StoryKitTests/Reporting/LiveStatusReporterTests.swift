import Testing
@testable import StoryKit

/// The status line on a terminal stays at the bottom and is gone at the end.
@Suite(.timeLimit(.minutes(10))) struct LiveStatusReporterTests {
    @Test("Report lines go above the status line, which is redrawn after each and erased when the run ends")
    func staysAtTheBottom() {
        var log: [String] = []
        let line = TerminalLine(writePartial: { log.append("partial:" + $0) }, writeLine: { log.append("line:" + $0) })
        var times: [UInt64] = [0, 1_500_000_000, 2_000_000_000]
        var reporter = LiveStatusReporter(line: line, style: .plain, now: { times.isEmpty ? 0 : times.removeFirst() })
        let story = Story(name: "Paying", location: .init(file: "a.stories", line: 1), steps: [])
        reporter.handle(.runStarted(fileCount: 1))
        reporter.handle(.storyStarted(story))
        reporter.handle(.storyFinished(StoryResult(story: story, status: .failed, steps: [], duration: 0)))
        line.write("FAILED  Paying")
        reporter.handle(.storyStarted(Story(name: "Refunds", location: .init(file: "a.stories", line: 5), steps: [])))
        reporter.handle(.runFinished(RunSummary()))
        let erase = TerminalLine.erase
        #expect(log == [
            "partial:\(erase)[file 1/1 · 0 stories done · 1.5 s] Paying",
            "partial:\(erase)", "line:FAILED  Paying", "partial:\(erase)[file 1/1 · 0 stories done · 1.5 s] Paying",
            "partial:\(erase)[file 1/1 · 1 stories done · 1 failed · 2.0 s] Refunds",
            "partial:\(erase)",
        ])
    }

    @Test("Without a terminal there is no status line in the output")
    func notOnAPipe() async {
        var lines: [String] = []
        _ = await StoryRun.run(
            arguments: [Golden.fixture("stories/good/basket.stories")], steps: [], style: .ansi,
            clock: { 0 }, output: { lines.append($0) })
        #expect(!lines.joined().contains("\r"))
    }
}
