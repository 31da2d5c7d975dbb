/// A way of running a run's stories: in this process (``InProcessExecutor``)
/// or by worker processes (``Supervisor``). The ``RunCoordinator`` gives it
/// the stories and the run's rules; it runs the run hooks and the stories
/// and tells the rules each outcome; what it says goes out as events.
protocol StoryExecutor {
    /// Runs the stories `next` gives, in order, until it gives none or
    /// `rules` say the run stops, with the run's before-run hooks first and
    /// its after-run hooks last; emits their events and tells `rules` what
    /// happened. Returns the stories it took from `next` and did not run,
    /// in the order they would have run (those `next` still holds are the
    /// coordinator's to count). `warn` says a line to the user.
    mutating func run(
        next: () -> PlannedStory?, rules: inout RunRules, emit: (RunEvent) -> Void, warn: (String) -> Void
    ) async -> [SourceLocation]
}

/// Runs stories in this process (`--in-process`, a dry run): user code in
/// the parent, one story after another.
struct InProcessExecutor: StoryExecutor {
    let registry: StepRegistry
    let configuration: Runner.Configuration
    let now: @Sendable () -> UInt64

    mutating func run(
        next: () -> PlannedStory?, rules: inout RunRules, emit: (RunEvent) -> Void, warn: (String) -> Void
    ) async -> [SourceLocation] {
        var runner = Runner(registry: registry, configuration: configuration, rules: rules, now: now)
        CrashNote.runsStories(true)
        await runner.begin(emit: emit)
        while !runner.isStopped, Interrupts.received == nil, let planned = next() {
            await runner.run(planned, emit: emit)
        }
        if Interrupts.received != nil { runner.interrupted() }
        await runner.finishHooks(emit: emit)
        rules = runner.rules
        return []
    }
}
