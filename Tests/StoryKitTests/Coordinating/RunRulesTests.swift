import Testing
@testable import StoryKit

/// The run's rules, which every way of running shares: totals, fail-fast,
/// a failed before-run hook, interrupts, the definitions used and what the
/// run says of stories it did not run.
@Suite(.timeLimit(.minutes(10))) struct RunRulesTests {
    static func registry() -> StepRegistry {
        let builder = RegistryBuilder()
        builder.register([CountingSteps.self])
        return builder.freeze()
    }

    static func result(_ status: StoryStatus, line: Int) -> StoryResult {
        let story = Story(name: "s\(line)", location: SourceLocation(file: "a.stories", line: line), steps: [])
        return StoryResult(story: story, status: status, testSteps: [], duration: 0)
    }

    static let places = [SourceLocation(file: "a.stories", line: 7), SourceLocation(file: "a.stories", line: 9)]

    @Test("--fail-fast stops after a failed story, and says so of those not run")
    func failFast() {
        var rules = RunRules(registry: Self.registry(), configuration: .init(isFailFast: true))
        rules.storyFinished(Self.result(.passed, line: 1), matches: nil)
        #expect(!rules.isStopping)
        rules.storyFinished(Self.result(.failed, line: 3), matches: nil)
        #expect(rules.isStopping)
        let (summary, note) = rules.end(notRun: Self.places, rejectedFiles: [], duration: 5)
        #expect(summary.stories == [.passed: 1, .failed: 1])
        #expect(summary.notRun == 2 && summary.notRunStories == Self.places && summary.duration == 5)
        #expect(note == "storyrun: 2 stories were not run (--fail-fast)")
    }

    @Test("Without --fail-fast a failed story does not stop the run")
    func noFailFast() {
        var rules = RunRules(registry: Self.registry(), configuration: .init())
        rules.storyFinished(Self.result(.failed, line: 3), matches: nil)
        #expect(!rules.isStopping)
        #expect(rules.end(notRun: [], rejectedFiles: [], duration: 0).note == nil)
    }

    @Test("A failed before-run hook stops the run; an after-run hook does not")
    func runHooks() {
        var rules = RunRules(registry: Self.registry(), configuration: .init())
        rules.runHookFailed(.afterRun)
        #expect(!rules.isStopping && rules.summary.failedHooks == 1)
        rules.runHookFailed(.beforeRun)
        #expect(rules.isStopping && rules.hasFailedBeforeRun && rules.summary.failedHooks == 2)
        #expect(rules.end(notRun: [Self.places[0]], rejectedFiles: [], duration: 0).note == "storyrun: 1 story was not run (a before-run hook failed)")
    }

    @Test("An interrupt stops the run and names itself as the reason")
    func interrupt() {
        var rules = RunRules(registry: Self.registry(), configuration: .init(isFailFast: true))
        rules.runHookFailed(.beforeRun)
        rules.interrupted()
        #expect(rules.isStopping && rules.summary.wasInterrupted)
        #expect(rules.end(notRun: Self.places, rejectedFiles: [], duration: 0).note == "storyrun: 2 stories were not run (the run was interrupted)")
    }

    @Test("Stories not run for no stopping reason (a worker that could not start) have no reason given")
    func notRunWithoutReason() {
        var rules = RunRules(registry: Self.registry(), configuration: .init())
        #expect(rules.end(notRun: Self.places, rejectedFiles: ["b.feature"], duration: 0).note == "storyrun: 2 stories were not run")
        #expect(rules.summary.rejectedFiles == ["b.feature"])
    }

    @Test("Definitions used are marked from the planned matches when known, else from the steps' results")
    func used() {
        let registry = Self.registry()
        var rules = RunRules(registry: registry, configuration: .init())
        let marked = [rules.markUsed(0), rules.markUsed(registry.definitions.count), rules.markUsed(-1)]
        #expect(marked == [true, false, false])
        var matcher = CachingMatcher(registry: registry)
        let step = Step(keyword: "Given", kind: .context, text: "remember this", location: SourceLocation(file: "a.stories", line: 2))
        let match = matcher.matches(step)
        rules.storyFinished(Self.result(.failed, line: 1), matches: [match])
        let used = rules.usedDefinitionIDs
        #expect(used == [0, match.matches[0].definition.id].sorted().uniqued())
        let unused = rules.end(notRun: [], rejectedFiles: [], duration: 0).summary.unusedDefinitions
        #expect(unused.count == registry.definitions.count - used.count)
    }

    @Test("A worker's rules keep no totals, but still mark what was used")
    func workerKeepsNoTotals() {
        var rules = RunRules(registry: Self.registry(), configuration: .init(isFailFast: true), keepsTotals: false)
        rules.storyFinished(Self.result(.failed, line: 1), matches: nil)
        #expect(rules.summary.stories.isEmpty && !rules.isStopping)
    }
}

extension Array where Element: Hashable {
    fileprivate func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
