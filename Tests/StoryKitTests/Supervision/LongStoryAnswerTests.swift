import Foundation
import Testing
@testable import StoryKit
import StoryrunSteps

/// A long story's answer goes from a worker to its parent in parts
/// (`WorkerWire+Parts.swift`): no line longer than a part, and the parent's
/// rebuild of the parts is the result the worker had, checked step by step
/// against the story it planned. Before, a story's answer was one line
/// (a failing story of 50,000 steps, one JSON document of 23 MB).
@Suite(.timeLimit(.minutes(10))) struct LongStoryAnswerTests {
    /// The worker's results for `source`, run in process, with the registry.
    static func run(_ source: String) async -> ([StoryResult], StepRegistry) {
        let builder = RegistryBuilder()
        builder.register(StoryrunSteps.consistency)
        let registry = builder.freeze()
        let (stories, diagnostics) = StoriesParser.parse(source, path: "long.stories")
        #expect(diagnostics.isEmpty)
        var runner = Runner(registry: registry, configuration: .init(), now: { 0 })
        var results: [StoryResult] = []
        _ = await runner.run(stories) { event in
            if case .storyFinished(let result) = event { results.append(result) }
        }
        return (results, registry)
    }

    static func story(_ name: String, steps count: Int, special: [Int: String] = [:]) -> String {
        "Story: \(name)\n" + (0..<count).map { "\($0 == 0 ? "Given" : "And") step \($0) \(special[$0] ?? "passes")\n" }.joined()
    }

    /// The lines the worker writes for `result`.
    static func lines(_ result: StoryResult, registry: StepRegistry, sequence: UInt64) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        WorkerWire.sendInParts(
            sequence: sequence, result: result,
            hookIndex: { hook in registry.hooks.firstIndex { $0.kind.rawValue == hook.kind && $0.location == hook.location } },
            compact: true, line: &line, send: { lines.append($0) })
        return lines
    }

    /// What the parent makes of `lines` for `planned`, as it reads them.
    static func rebuild(_ lines: [[UInt8]], planned: PlannedStory, registry: StepRegistry) -> StoryResult? {
        var partial: PartialAnswer?
        for line in lines {
            #expect(line.last == 0x0A)
            let message = line.dropLast().withUnsafeBufferPointer { WorkerWire.parse(bytes: $0) }
            switch message {
            case .part(let sequence, let testSteps)?:
                if partial == nil { partial = PartialAnswer(sequence: sequence) }
                guard partial!.add(testSteps, story: planned.story, registry: registry, style: .regex) else { return nil }
            case .wholeStep(let sequence, let testStep)?:
                if partial == nil { partial = PartialAnswer(sequence: sequence) }
                guard partial!.add(testStep, story: planned.story) else { return nil }
            case .passed(_, let duration, let rest)?:
                return partial?.compact(planned, status: .passed, duration: duration, rest: rest, registry: registry, style: .regex)
            case .compact(_, let status, let duration, let rest)?:
                return partial?.compact(planned, status: status, duration: duration, rest: rest, registry: registry, style: .regex)
            case .result(_, let wire)?:
                return partial?.whole(wire).result(for: planned.story)
            default:
                Issue.record("not a line of an answer: \(String(decoding: line.prefix(80), as: UTF8.self))")
                return nil
            }
        }
        return nil
    }

    /// A step's result as a report shows it.
    static func summary(_ result: StoryResult) -> [String] {
        result.testSteps.map { testStep in
            switch testStep {
            case .step(let step):
                // The definition by its place: a step sent whole (JSON) does
                // not carry its definition's id (MatchInfo does not encode it).
                "\(step.step.location.line) \(step.status) \(step.match?.location.line ?? -1) \(step.match?.arguments ?? []) "
                    + "\(step.error?.message ?? "") \(step.attachments.count)"
            case .hook(let hook): "hook \(hook.kind) \(hook.location.line) \(hook.status)"
            }
        }
    }

    @Test("A passing story of 3,000 steps goes in parts of at most 512 steps and comes back whole, ended by a P line")
    func passingStoryInParts() async throws {
        let (results, registry) = await Self.run(Self.story("long", steps: 3_000))
        let result = try #require(results.first)
        #expect(result.status == .passed)
        let lines = Self.lines(result, registry: registry, sequence: 4)
        #expect(lines.count == 7, "6 parts of 512 steps or fewer and the end")
        #expect(lines.allSatisfy { $0.count < SharedPosition.size }, "\(lines.map(\.count).max() ?? 0) bytes")
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self).hasPrefix("P 4 ") } == true)
        let planned = PlannedStory(story: result.story, matches: nil)
        let rebuilt = try #require(Self.rebuild(lines, planned: planned, registry: registry))
        #expect(rebuilt.status == .passed)
        #expect(Self.summary(rebuilt) == Self.summary(result))
    }

    @Test("A failing story of 2,000 steps, one attaching: its plain steps in parts, the others whole, the same result rebuilt")
    func failingStoryInParts() async throws {
        let (results, registry) = await Self.run(Self.story("failing", steps: 2_000, special: [700: "attaches", 1_500: "fails"]))
        let result = try #require(results.first)
        #expect(result.status == .failed)
        let lines = Self.lines(result, registry: registry, sequence: 9)
        // No line holds the whole story: the longest is a part.
        #expect(lines.allSatisfy { $0.count < SharedPosition.size }, "\(lines.map(\.count).max() ?? 0) bytes")
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self).hasPrefix("J 9 ") } == true)
        let planned = PlannedStory(story: result.story, matches: nil)
        let rebuilt = try #require(Self.rebuild(lines, planned: planned, registry: registry))
        #expect(rebuilt.status == .failed)
        #expect(Self.summary(rebuilt) == Self.summary(result))
        #expect(rebuilt.steps[1_500].error?.message.contains("step 1500 was told to fail") == true)
        #expect(rebuilt.steps[700].attachments.count == 2)
    }

    /// The lines a worker's answers write for `result` when the story's
    /// steps are told to it one by one as they end (as the runner tells
    /// ``WorkerAnswers/stepEnded(_:)``), and how many went before its end.
    static func streamedLines(_ result: StoryResult, registry: StepRegistry, sequence: UInt64) throws -> (lines: [[UInt8]], beforeEnd: Int) {
        let page = try #require(Descriptors.temporaryFile("test-page"))
        let channel = try #require(Descriptors.temporaryFile("test-channel", appending: false))
        defer { close(page); close(channel) }
        let position = try #require(SharedPosition.map(fileDescriptor: page))
        let answers = WorkerAnswers(
            registry: registry, position: position, outbox: WorkerOutbox(position: position, descriptor: channel), streamsParts: true)
        answers.sequence = sequence
        for count in result.testSteps.indices.map({ $0 + 1 }) where result.testSteps[count - 1].stepStatus != nil {
            answers.stepEnded(Array(result.testSteps[..<count]))
        }
        let beforeEnd = lseek(channel, 0, SEEK_CUR)
        answers.forward(.storyFinished(result))
        let written = Int(lseek(channel, 0, SEEK_CUR))
        var bytes = [UInt8](repeating: 0, count: written)
        #expect(pread(channel, &bytes, written, 0) == written)
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: true).map { Array($0) + [0x0A] }
        let linesBeforeEnd = bytes[..<Int(beforeEnd)].count { $0 == 0x0A }
        return (lines, linesBeforeEnd)
    }

    @Test("A long story's parts go while it runs: all but the last part before its end, the step just ended held back, the same result rebuilt")
    func partsGoWhileTheStoryRuns() async throws {
        let (results, registry) = await Self.run(Self.story("long", steps: 3_000))
        let result = try #require(results.first)
        let (lines, beforeEnd) = try Self.streamedLines(result, registry: registry, sequence: 3)
        // 3,000 steps: five full parts while it ran (the 3,000th step, just
        // ended, never among them), the rest (440 steps) and P at its end.
        #expect(beforeEnd == 5, "\(lines.map { String(decoding: $0.prefix(12), as: UTF8.self) })")
        #expect(lines.count == 7)
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self).hasPrefix("P 3 ") } == true)
        let rebuilt = try #require(Self.rebuild(lines, planned: PlannedStory(story: result.story, matches: nil), registry: registry))
        #expect(Self.summary(rebuilt) == Self.summary(result))
    }

    @Test("A long story whose step 700 attaches: parts go while it runs up to it, the rest once it has run, the same result rebuilt")
    func streamingStopsAtAStepThatIsNotPlain() async throws {
        let (results, registry) = await Self.run(Self.story("failing", steps: 2_000, special: [700: "attaches", 1_500: "fails"]))
        let result = try #require(results.first)
        let (lines, beforeEnd) = try Self.streamedLines(result, registry: registry, sequence: 8)
        // One full part (steps 0-511) before step 700 ended; none after it.
        #expect(beforeEnd == 1, "\(lines.map { String(decoding: $0.prefix(12), as: UTF8.self) })")
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self).hasPrefix("J 8 ") } == true)
        let rebuilt = try #require(Self.rebuild(lines, planned: PlannedStory(story: result.story, matches: nil), registry: registry))
        #expect(Self.summary(rebuilt) == Self.summary(result))
        #expect(rebuilt.steps[700].attachments.count == 2)
    }

    @Test("Parts that do not fit the planned story are refused: a step past its last, another step's line, a P after a whole step")
    func partsThatDoNotFit() async throws {
        let (results, registry) = await Self.run(Self.story("long", steps: 600, special: [599: "fails"]))
        let result = try #require(results.first)
        let lines = Self.lines(result, registry: registry, sequence: 1)
        // The same answer for a story of fewer steps: the parts run past it.
        let (shorter, _) = await Self.run(Self.story("short", steps: 100))
        let short = try #require(shorter.first)
        #expect(Self.rebuild(lines, planned: PlannedStory(story: short.story, matches: nil), registry: registry) == nil)
        // A step sent whole whose line is not the next step's.
        var partial = PartialAnswer(sequence: 1)
        let lastStep = try #require(result.testSteps.last { if case .step = $0 { true } else { false } })
        let fits = partial.add(lastStep, story: short.story)
        #expect(!fits)
        // Plain parts ended by "P" after a step sent whole: refused.
        var mixed = lines.filter { !String(decoding: $0, as: UTF8.self).hasPrefix("J ") }
        mixed.append(Array("P 1 5\n".utf8))
        #expect(Self.rebuild(mixed, planned: PlannedStory(story: result.story, matches: nil), registry: registry) == nil)
    }
}
