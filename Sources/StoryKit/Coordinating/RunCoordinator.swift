/// Runs a run's stories through one ``StoryExecutor`` and owns what every
/// way of running shares: the run's start and end events, its totals (kept
/// by ``RunRules``), the stories it did not run, and what it says of them.
/// The exit status is read from its totals by ``RunVerdict``.
///
/// ```
/// RunQueue ──next──▶ StoryExecutor (in process │ worker pool) ──events──▶ RunReports
///                        │ outcomes                                         ▲
///                        ▼                                                  │
///                    RunRules ──────────── totals ─────▶ runFinished ───────┘
/// ```
struct RunCoordinator {
    let registry: StepRegistry
    let configuration: Runner.Configuration
    let now: @Sendable () -> UInt64

    /// Runs every story `queue` gives through `executor`; emits the run's
    /// events (ending with `runFinished`) and says, through `warn`, which
    /// stories did not run and why. Returns the run's totals.
    func run(_ executor: inout some StoryExecutor, queue: RunQueue, emit: (RunEvent) -> Void, warn: (String) -> Void) async -> RunSummary {
        let start = now()
        var rules = RunRules(registry: registry, configuration: configuration)
        var notRun = await executor.run(next: queue.next, rules: &rules, emit: emit, warn: warn)
        notRun += queue.drain()
        let (summary, note) = rules.end(notRun: notRun, rejectedFiles: queue.rejectedFiles, duration: now() &- start)
        if let note { warn(note) }
        emit(.runFinished(summary))
        return summary
    }
}
