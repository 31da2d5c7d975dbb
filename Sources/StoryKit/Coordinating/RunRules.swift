/// The rules of a run, written once for every way of running (in this
/// process, or by worker processes): what a story's outcome adds to the
/// totals, which definitions were used, when the run stops (`--fail-fast`,
/// a failed before-run hook, a signal), and what the run says at its end of
/// the stories it did not run and the definitions no story used.
///
/// Each way of running (a ``StoryExecutor``) tells its rules what happened;
/// they keep the totals the run's verdict is read from (see ``RunVerdict``).
struct RunRules {
    let registry: StepRegistry
    let configuration: Runner.Configuration
    /// The totals so far.
    private(set) var summary = RunSummary()
    /// Whether each definition, by id, has won a match.
    private var isUsed: [Bool]
    /// Whether the run stops handing out stories: `--fail-fast` after a
    /// failed story, a failed before-run hook, or a signal.
    private(set) var isStopping = false
    /// Whether a before-run hook failed: the run's setup did not happen, so
    /// no story runs (as Cucumber's BeforeAll); the other before-run hooks
    /// and every after-run hook still run.
    private(set) var hasFailedBeforeRun = false
    /// Whether stories' outcomes are added to the totals: not in a worker
    /// process, whose totals are its parent's to keep (from its answers).
    private let keepsTotals: Bool

    init(registry: StepRegistry, configuration: Runner.Configuration, keepsTotals: Bool = true) {
        self.registry = registry
        self.configuration = configuration
        self.keepsTotals = keepsTotals
        isUsed = Array(repeating: false, count: registry.definitions.count)
    }

    /// The ids of the definitions that have won a match.
    var usedDefinitionIDs: [Int] { isUsed.indices.filter { isUsed[$0] } }

    /// Marks a definition used; false for an id no definition has.
    @discardableResult
    mutating func markUsed(_ id: Int) -> Bool {
        guard id >= 0, id < isUsed.count else { return false }
        isUsed[id] = true
        return true
    }

    /// A story's outcome: its totals, the definitions its steps used (its
    /// planned `matches` when known: a story a crash ended has results
    /// rebuilt without them; else its steps' results), and whether the run
    /// stops after it (`--fail-fast`).
    mutating func storyFinished(_ result: borrowing StoryResult, matches: [MatchResult]?) {
        if let matches {
            for index in matches.indices where !matches[index].matches.isEmpty { isUsed[matches[index].matches[0].definition.id] = true }
        } else {
            // One pass over the test steps (`steps` would build an array each time).
            for index in result.testSteps.indices {
                guard case .step(let step) = result.testSteps[index] else { continue }
                if let id = step.match?.definitionID { markUsed(id) }
            }
        }
        guard keepsTotals else { return }
        summary.add(result)
        if configuration.isFailFast && result.status == .failed { isStopping = true }
    }

    /// A before-run or after-run hook failed; a failed before-run hook
    /// stops the run.
    mutating func runHookFailed(_ kind: Hook.Kind) {
        summary.failedHooks += 1
        if kind == .beforeRun {
            hasFailedBeforeRun = true
            isStopping = true
        }
    }

    /// Something failed the run outside every story (a worker's answer that
    /// was not its own, a worker that could not run its hooks): counted
    /// with the failed run hooks, so the run is never green.
    mutating func runFailedOutsideStories() {
        summary.failedHooks += 1
    }

    /// What failed the run outside every step and hook, as said to the user.
    mutating func runError(_ message: String) {
        summary.runErrors.append(message)
    }

    /// A signal asked the run to stop.
    mutating func interrupted() {
        isStopping = true
        summary.wasInterrupted = true
    }

    /// Ends the run's totals: the stories selected and not run (in the order
    /// they would have run), the files rejected, how long it took and the
    /// definitions no story used. Returns the totals, and what the run says
    /// of the stories it did not run (nil when it ran them all).
    mutating func end(notRun: [SourceLocation], rejectedFiles: [String], duration: UInt64) -> (summary: RunSummary, note: String?) {
        summary.notRun = notRun.count
        summary.notRunStories = notRun
        summary.rejectedFiles = rejectedFiles
        summary.duration = duration
        summary.unusedDefinitions = registry.definitions
            .filter { !isUsed[$0.id] }
            .map { UnusedDefinition(pattern: $0.pattern, location: $0.location, isFromLibrary: $0.isFromLibrary) }
        return (summary, notRunNote)
    }

    /// What a run says of the stories it selected and did not run, and why;
    /// nil when it ran them all. One wording for every way of running.
    var notRunNote: String? {
        let count = summary.notRun
        guard count > 0 else { return nil }
        let why =
            summary.wasInterrupted ? " (the run was interrupted)"
            : hasFailedBeforeRun ? " (a before-run hook failed)" : isStopping ? " (--fail-fast)" : ""
        return "storyrun: \(count) stor\(count == 1 ? "y was" : "ies were") not run" + why
    }

    /// What a run (and a merge of its shards) says at the end of the
    /// problems in its input that kept stories from running; nil for none.
    static func rejectedInputNote(problems count: Int) -> String? {
        guard count > 0 else { return nil }
        return "storyrun: \(count) problem\(count == 1 ? "" : "s") in the input (above); the stories they are in did not run"
    }
}
