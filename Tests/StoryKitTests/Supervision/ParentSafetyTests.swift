import Foundation
import Testing

@testable import StoryKit

/// What the parent checks for itself of what a worker sends or writes on
/// the shared page, each part alone.
@Suite struct ParentSafetyTests {
    private static func story(steps: Int) -> Story {
        Story(
            name: "planned", location: SourceLocation(file: "a.stories", line: 1),
            steps: (0..<steps).map { Step(keyword: "Given", kind: .context, text: "step \($0)", location: .init(file: "a.stories", line: 2 + $0)) })
    }

    private static func wire(_ status: StoryStatus, _ steps: [Step], stepStatus: StepStatus = .passed) -> WorkerWire.WireResult {
        let result = StoryResult(
            story: story(steps: 0), status: status,
            testSteps: steps.map { .step(StepResult(step: $0, status: stepStatus, duration: 1, error: nil, match: nil, alsoMatched: [])) },
            duration: 1)
        return WorkerWire.WireResult(result)
    }

    @Test("A whole answer must account for every planned step: a pass with no steps, too few, others, or a failed step in a pass is refused")
    func wholeAnswerFits() {
        let planned = Self.story(steps: 2)
        #expect(Self.wire(.passed, []).result(for: planned) == nil)
        #expect(Self.wire(.passed, [planned.steps[0]]).result(for: planned) == nil)
        #expect(Self.wire(.passed, [planned.steps[1], planned.steps[0]]).result(for: planned) == nil)
        #expect(Self.wire(.passed, planned.steps, stepStatus: .failed).result(for: planned) == nil)
        #expect(Self.wire(.passed, planned.steps + [planned.steps[0]]).result(for: planned) == nil)
        #expect(Self.wire(.passed, planned.steps).result(for: planned)?.status == .passed)
        #expect(Self.wire(.failed, planned.steps, stepStatus: .failed).result(for: planned)?.status == .failed)
    }

    @Test("Lines that are not messages are named for the note, control characters visible and cut at 60 bytes")
    func invalidLineDescribed() {
        let text = Array("hello\u{1B}[8m".utf8)
        let described = text.withUnsafeBufferPointer { WorkerWire.describe($0) }
        #expect(described == "a line that is no message of a worker's (\"hello\\u{1B}[8m\")")
        let long = Array(String(repeating: "x", count: 100).utf8)
        #expect(long.withUnsafeBufferPointer { WorkerWire.describe($0) }.hasSuffix("x\"…)"))
    }

    private static func snapshot(story: UInt64? = 0, kind: SharedPosition.StepKind = .step, index: Int = 0) -> SharedPosition.Snapshot {
        SharedPosition.Snapshot(
            phase: .stories, story: story, attempt: 0, stepKind: kind, stepIndex: index, hookIndex: 0, deadline: 0, outputOffset: 0,
            lastStarted: story, unsent: 0, isChannelLost: false, storyStart: 1)
    }

    @Test("The step clock counts from when the parent first saw a test step, whatever the deadline slot says")
    func stepClock() {
        let second: UInt64 = 1_000_000_000
        var clock = StepClock(seconds: 1)
        func overrun(_ snapshot: SharedPosition.Snapshot, _ time: UInt64) -> Bool { clock.isOverrun(snapshot, at: time) }
        #expect(clock.limit == 3 * second)  // 1 s and the grace of 2 s
        var seen = Self.snapshot()
        #expect(!overrun(seen, 10 * second))
        seen.deadline = 0  // as a step wrote it
        #expect(!overrun(seen, 12 * second))
        #expect(overrun(seen, 13 * second + 1))
        // The next test step starts its own count.
        #expect(!overrun(Self.snapshot(index: 1), 14 * second))
        #expect(!overrun(Self.snapshot(index: 1), 16 * second))
        #expect(overrun(Self.snapshot(index: 1), 17 * second + 1))
        // Between test steps, nothing runs against the limit.
        #expect(!overrun(Self.snapshot(kind: .none), 100 * second))
        #expect(!overrun(Self.snapshot(kind: .none), 200 * second))
    }

    @Test("Indexes read from the shared page are never negative, whatever was written there")
    func pageIndexes() throws {
        var template = Array("/tmp/storyrun-position-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(descriptor >= 0)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        defer { close(descriptor) }
        let position = try #require(SharedPosition.map(fileDescriptor: descriptor))
        // All bits set, as -1 written by a step reads.
        position.startTestStep(.hook, index: Int.max, hookIndex: Int.max, deadline: 0, output: 0)
        position.startAttempt(Int.max, at: 0)
        let snapshot = position.snapshot
        #expect(snapshot.stepIndex == Int(Int32.max) && snapshot.hookIndex == Int(Int32.max) && snapshot.attempt == Int(Int32.max))
    }

    @Test("Exit status of a run a signal stopped: 128 + its number, for every signal that stops a run")
    func exitStatusTable() {
        for signal in Interrupts.stopping {
            #expect(ExitStatus.stopped(by: signal).rawValue == 128 + signal, "signal \(signal)")
            #expect(ExitStatus.stopped(by: signal).isStoppedBySignal)
        }
        for signal in [SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM, SIGPROF, SIGSYS, SIGQUIT, SIGINT, SIGTERM, SIGHUP] {
            #expect(Interrupts.stopsRun(signal), "signal \(signal)")
        }
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGPIPE, SIGCHLD, SIGTTIN, SIGTTOU] {
            #expect(!Interrupts.stopsRun(signal), "signal \(signal)")
        }
        #expect(!ExitStatus.storyFailed.isStoppedBySignal && !ExitStatus.inputError.isStoppedBySignal)
    }
}
