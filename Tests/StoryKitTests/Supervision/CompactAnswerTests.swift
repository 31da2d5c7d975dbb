import Testing
@testable import StoryKit

/// A story that did not pass but whose test steps are all plain (passed,
/// skipped, undefined) goes from a worker as a compact line (`C STATUS …`,
/// undefined steps `u`, skipped ones `k:…`), not as a JSON document; the
/// parent tells each undefined step itself, through the runner's own rule
/// (``StoryExecution/undefinedResult(for:in:style:)``), once it has checked
/// that no definition matches it. Before, every such test step crossed the
/// pipe through Foundation's JSON encoder and decoder, snippet and all.
@Suite(.timeLimit(.minutes(10))) struct CompactAnswerTests {
    /// Each test step as reports show it, undefined steps' suggestions too.
    static func summary(_ result: StoryResult) -> [String] {
        result.testSteps.map { testStep in
            switch testStep {
            case .step(let step):
                "\(step.step.location.line) \(step.status) \(step.duration) \(step.match?.location.line ?? -1) \(step.match?.arguments ?? []) "
                    + "\(step.match?.spans.count ?? 0) \(step.error?.message ?? "") \(step.didYouMean?.pattern ?? "-") \(step.snippet ?? "-")"
            case .hook(let hook): "hook \(hook.kind) \(hook.location.line) \(hook.status)"
            }
        }
    }

    /// The line a worker writes for `result`, and what the parent rebuilds
    /// from it (nil: refused).
    static func roundTrip(_ result: StoryResult, registry: StepRegistry) -> (line: String, rebuilt: StoryResult?) {
        var bytes: [UInt8] = []
        let written = WorkerWire.compactLine(
            sequence: 5, result: result,
            hookIndex: { hook in registry.hooks.firstIndex { $0.kind.rawValue == hook.kind && $0.location == hook.location } },
            into: &bytes)
        let line = String(decoding: bytes, as: UTF8.self)
        guard written else { return (line, nil) }
        return (line, rebuild(line, story: result.story, registry: registry))
    }

    static func rebuild(_ line: String, story: Story, registry: StepRegistry) -> StoryResult? {
        let message = Array(line.utf8.dropLast(line.hasSuffix("\n") ? 1 : 0)).withUnsafeBufferPointer { WorkerWire.parse(bytes: $0) }
        var partial = PartialAnswer(sequence: 5)
        let planned = PlannedStory(story: story, matches: nil)
        switch message {
        case .passed(_, let duration, let testSteps)?:
            return partial.compact(planned, status: .passed, duration: duration, rest: testSteps, registry: registry, style: .regex)
        case .compact(_, let status, let duration, let testSteps)?:
            return partial.compact(planned, status: status, duration: duration, rest: testSteps, registry: registry, style: .regex)
        default:
            return nil
        }
    }

    @Test("An undefined story's answer is one compact line, no JSON, and the parent's rebuild is the worker's result, snippets and suggestions included")
    func undefinedStory() async throws {
        let source = LongStoryAnswerTests.story("undefined", steps: 6, special: [2: "flies to the moon", 4: "flies to mars"])
        let (results, registry) = await LongStoryAnswerTests.run(source)
        let result = try #require(results.first)
        #expect(result.status == .undefined)
        let (line, rebuilt) = Self.roundTrip(result, registry: registry)
        #expect(line.hasPrefix("C undefined 5 "), "\(line)")
        #expect(!line.contains("{"), "\(line)")
        let story = try #require(rebuilt)
        #expect(story.status == .undefined)
        #expect(Self.summary(story) == Self.summary(result))
        #expect(story.steps[2].snippet?.isEmpty == false)
        #expect(story.steps[5].status == .skipped && story.steps[5].match != nil)
    }

    @Test("A long undefined story (1,200 steps, every one undefined) goes in compact parts, no K line, and comes back the same")
    func longUndefinedStory() async throws {
        let source = "Story: all undefined\n" + (0..<1_200).map { "\($0 == 0 ? "Given" : "And") the weather is \($0) degrees\n" }.joined()
        let (results, registry) = await LongStoryAnswerTests.run(source)
        let result = try #require(results.first)
        #expect(result.status == .undefined)
        let lines = LongStoryAnswerTests.lines(result, registry: registry, sequence: 7)
        let kinds = lines.map { String(decoding: $0.prefix(2), as: UTF8.self) }
        #expect(kinds == ["T ", "T ", "T ", "C "], "\(kinds)")
        let rebuilt = try #require(LongStoryAnswerTests.rebuild(lines, planned: PlannedStory(story: result.story, matches: nil), registry: registry))
        #expect(rebuilt.status == .undefined)
        #expect(Self.summary(rebuilt) == Self.summary(result))
    }

    @Test("The parent refuses a compact answer it can check is wrong: a defined step said undefined, a passed story with an undefined step, an undefined one with none")
    func refusedClaims() async throws {
        let source = LongStoryAnswerTests.story("undefined", steps: 3, special: [1: "flies to the moon"])
        let (results, registry) = await LongStoryAnswerTests.run(source)
        let story = try #require(results.first).story
        let (passing, _) = await LongStoryAnswerTests.run(LongStoryAnswerTests.story("passing", steps: 3))
        let passed = try #require(passing.first).story
        // The honest answer is taken.
        #expect(Self.rebuild("C undefined 5 10 s:1:0:0 u k:0:0:2\n", story: story, registry: registry) != nil)
        // Step 0 ("step 0 passes") said undefined.
        #expect(Self.rebuild("C undefined 5 10 u u k:0:0:2\n", story: story, registry: registry) == nil)
        // "Passed" with an undefined or a skipped step.
        #expect(Self.rebuild("P 5 10 s:1:0:0 u s:1:0:2\n", story: story, registry: registry) == nil)
        #expect(Self.rebuild("P 5 10 s:1:0:0 k:0:0:1 s:1:0:2\n", story: passed, registry: registry) == nil)
        // "Undefined" with no undefined step; "failed" never compact.
        #expect(Self.rebuild("C undefined 5 10 s:1:0:0 s:1:0:1 s:1:0:2\n", story: passed, registry: registry) == nil)
        #expect(Self.rebuild("C failed 5 10 s:1:0:0 s:1:0:1 s:1:0:2\n", story: passed, registry: registry) == nil)
    }

    @Test("A dry run's skipped story is a compact line too")
    func skippedStory() async throws {
        let (results, registry) = await LongStoryAnswerTests.run(LongStoryAnswerTests.story("dry", steps: 3))
        var result = try #require(results.first)
        // As a dry run answers it: every step skipped, with its match.
        result.status = .skipped
        for index in result.testSteps.indices {
            guard case .step(var step) = result.testSteps[index] else { continue }
            step.status = .skipped
            step.duration = 0
            result.testSteps[index] = .step(step)
        }
        let (line, rebuilt) = Self.roundTrip(result, registry: registry)
        #expect(line.hasPrefix("C skipped 5 "), "\(line)")
        let story = try #require(rebuilt)
        #expect(Self.summary(story) == Self.summary(result))
    }
}
