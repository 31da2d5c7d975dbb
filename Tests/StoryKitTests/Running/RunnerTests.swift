import Testing
@testable import StoryKit

/// Counts instances, so tests can see one per story.
final class CountingSteps: StepDefinitions {
    nonisolated(unsafe) static var made = 0
    var calls: [String] = []
    required init() { Self.made += 1 }
    static func define(_ step: StepMap<CountingSteps>) {
        step("^remember (\\w+)$") { (steps: CountingSteps, word: String) in
            steps.calls.append(word)
            steps.store["calls"] = steps.calls
        }
        step("^(\\d+) words? (?:was|were) remembered$") { (steps: CountingSteps, count: Int) in
            try expectEqual(steps.calls.count, count)
            try expectEqual(try steps.store.value("calls", as: [String].self).count, count)
        }
        step("^the store is empty$") { steps in try expect(steps.store.keys.isEmpty, "keys: \(steps.store.keys)") }
        step("^it throws$") { _ in throw CancellationError() }
        step("^it waits$") { _ in await Task.yield() }
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct RunnerTests {
    static func run(_ source: String, strict: Bool = false, dryRun: Bool = false) async -> (RunSummary, [StoryResult]) {
        let builder = RegistryBuilder()
        builder.register([CountingSteps.self])
        let (stories, diagnostics) = StoriesParser.parse(source, path: "t.stories")
        #expect(diagnostics.isEmpty)
        var runner = Runner(registry: builder.freeze(), configuration: .init(isStrict: strict, isDryRun: dryRun), now: { 0 })
        var results: [StoryResult] = []
        let summary = await runner.run(stories) { event in
            if case .storyFinished(let result) = event { results.append(result) }
        }
        return (summary, results)
    }

    @Test("A step class is made once per story, and its state does not leak into the next")
    func instancePerStory() async {
        CountingSteps.made = 0
        let (summary, results) = await Self.run("""
            Story: one
            Given remember a
            And remember b
            Then 2 words were remembered
            Story: two
            Given the store is empty
            When remember c
            Then 1 word was remembered
            """)
        #expect(results.map(\.status) == [.passed, .passed])
        #expect(CountingSteps.made == 2)
        #expect(summary.stories == [.passed: 2])
    }

    @Test("After a failing step the rest are skipped")
    func skipAfterFailure() async {
        let (summary, results) = await Self.run("Story: s\nGiven it throws\nWhen remember a\nThen 1 word was remembered")
        #expect(results.first?.steps.map(\.status) == [.failed, .skipped, .skipped])
        #expect(results.first?.steps.first?.error?.message.contains("CancellationError") == true)
        #expect(summary.hasFailures(strict: false))
    }

    @Test("A story with an undefined step runs the steps before it, as Cucumber does, and skips the rest")
    func undefinedRunsStepsBefore() async {
        CountingSteps.made = 0
        let (summary, results) = await Self.run("Story: s\nGiven remember a\nWhen nobody knows this step\nThen 1 word was remembered")
        #expect(results.first?.status == .undefined)
        #expect(results.first?.steps.map(\.status) == [.passed, .undefined, .skipped])
        #expect(CountingSteps.made == 1)
        #expect(!summary.hasFailures(strict: false))
        #expect(summary.hasFailures(strict: true))
    }

    @Test("Async steps run")
    func asyncSteps() async {
        let (_, results) = await Self.run("Story: s\nGiven it waits\nThen the store is empty")
        #expect(results.first?.status == .passed)
    }

    @Test("A dry run matches and runs nothing")
    func dryRun() async {
        CountingSteps.made = 0
        let (_, results) = await Self.run("Story: s\nGiven it throws\nThen 0 words were remembered", dryRun: true)
        #expect(results.first?.status == .skipped)
        #expect(CountingSteps.made == 0)
    }

    @Test("Unused definitions are listed in the summary")
    func unused() async {
        let (summary, _) = await Self.run("Story: s\nGiven it waits\nThen the store is empty")
        #expect(summary.unusedDefinitions.map(\.pattern) == ["^remember (\\w+)$", "^(\\d+) words? (?:was|were) remembered$", "^it throws$"])
    }
}
