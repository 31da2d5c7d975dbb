/// Runs stories one after another and reports what happens as events.
///
/// Per story the runner makes a ``StoryContext`` (step class instances and
/// the store), matches every step, runs the before hooks, the steps in
/// order and the after hooks: a story with an undefined step runs no step;
/// after a failing step the rest are skipped. Stories are handed to it one
/// at a time, so a run never holds them all.
struct Runner {
    let registry: StepRegistry
    let configuration: Configuration
    /// The current time in nanoseconds; injected so golden reports are stable.
    let now: @Sendable () -> UInt64
    private let start: UInt64
    private var matcher: CachingMatcher
    private var reportedAmbiguities: Set<[Int]> = []
    /// The run's rules: its totals, the definitions used, when it stops.
    private(set) var rules: RunRules
    /// The ids of the definitions that have won a match.
    var usedDefinitionIDs: [Int] { rules.usedDefinitionIDs }
    /// Whether `--fail-fast`, a failed before-run hook or a signal has stopped the run.
    var isStopped: Bool { rules.isStopping }
    /// Whether a before-run hook failed (see ``RunRules/hasFailedBeforeRun``).
    var hasFailedBeforeRun: Bool { rules.hasFailedBeforeRun }
    /// Cancels a step that overruns its time limit.
    let watchdog: StepWatchdog
    /// In a worker process, what its parent watches.
    let probe: WorkerProbe?
    /// The working directory and mask each story starts with.
    private let processState = ProcessState()

    /// `rules`: the run's, when a ``RunCoordinator`` keeps them (see
    /// ``InProcessExecutor``); else the runner keeps its own.
    init(
        registry: StepRegistry, configuration: Configuration, rules: RunRules? = nil, probe: WorkerProbe? = nil,
        now: @escaping @Sendable () -> UInt64
    ) {
        self.registry = registry
        self.configuration = configuration
        self.probe = probe
        watchdog = StepWatchdog(isInProcess: probe == nil)
        self.now = now
        start = now()
        matcher = CachingMatcher(registry: registry)
        // A worker's totals are its parent's to keep (from the results it sends).
        self.rules = rules ?? RunRules(registry: registry, configuration: configuration, keepsTotals: probe == nil)
    }

    /// Runs a list of stories from start to finish: the whole run.
    mutating func run(_ stories: [Story], emit: (RunEvent) -> Void) async -> RunSummary {
        emit(.runStarted(fileCount: Set(stories.map(\.location.file)).count))
        await begin(emit: emit)
        for story in stories { await run(story, emit: emit) }
        return await finish(emit: emit)
    }

    /// Runs the before-run hooks; a failure is reported as a diagnostic and
    /// fails the run.
    mutating func begin(emit: (RunEvent) -> Void) async {
        watchdog.start()
        await runRunHooks(.beforeRun, emit: emit)
    }

    /// Runs one story (again, up to `retries` times, while it fails) and
    /// adds it to the totals.
    mutating func run(_ story: Story, emit: (RunEvent) -> Void) async {
        guard !isStopped else { return }
        await run(story, matches: story.steps.map { matcher.matches($0) }, emit: emit)
    }

    /// Runs a story whose steps are matched already (see ``StoryFeed``).
    /// `attemptsUsed` counts attempts made elsewhere (in workers that a
    /// crash ended), which count against `retries`.
    mutating func run(_ planned: PlannedStory, attemptsUsed: Int = 0, emit: (RunEvent) -> Void) async {
        guard !isStopped else { return }
        let matches = planned.matches ?? planned.story.steps.map { matcher.matches($0) }
        await run(planned.story, matches: matches, attemptsUsed: attemptsUsed, emit: emit)
    }

    private mutating func run(_ story: Story, matches: [MatchResult], attemptsUsed: Int = 0, emit: (RunEvent) -> Void) async {
        if configuration.emitsStoryProgress { emit(.storyStarted(story)) }
        // By index: pairs of steps and matches would copy both.
        for index in 0..<min(story.steps.count, matches.count) where !matches[index].matches.isEmpty {
            if matches[index].isAmbiguous, reportedAmbiguities.insert(matches[index].matches.map(\.definition.id)).inserted {
                emit(.diagnostic(AmbiguityDiagnostic.make(step: story.steps[index], result: matches[index], isStrict: configuration.isStrict)))
            }
        }
        var earlier: [StoryAttempt] = []
        var events: [RunEvent] = []
        // With retries, step results are held until the last attempt; a
        // step's start goes out at once, so a parent process knows where a
        // worker died. Without, every attempt is the last: all goes out as
        // it comes.
        let holdsResults = configuration.retries > 0
        func record(_ event: RunEvent) {
            switch event {
            case .stepStarted: emit(event)
            default: if holdsResults { events.append(event) } else { emit(event) }
            }
        }
        var result = await attempt(story, matches: matches, emit: record)
        let canChange = Self.canChange(matches, isStrict: configuration.isStrict)
        while result.status == .failed && canChange && attemptsUsed + earlier.count < configuration.retries {
            earlier.append(StoryAttempt(status: result.status, testSteps: result.testSteps, duration: result.duration))
            events = []
            processState.restore()
            probe?.beginAttempt(attemptsUsed + earlier.count)
            result = await self.attempt(story, matches: matches, emit: record)
        }
        result.earlierAttempts = earlier
        processState.restore()
        events.forEach(emit)
        rules.storyFinished(result, matches: matches)
        emit(.storyFinished(result))
    }

    /// Whether another attempt at a story could change its verdict. As
    /// Cucumber's: an undefined step (or an ambiguous one under --strict)
    /// cannot, so such a story is not run again, after a failure or a crash.
    static func canChange(_ matches: [MatchResult], isStrict: Bool) -> Bool {
        !matches.contains { $0.isUndefined || ($0.isAmbiguous && isStrict) }
    }

    /// A signal asked the run to stop: no story starts after this one.
    mutating func interrupted() {
        rules.interrupted()
    }

    /// Ends the run: runs the after-run hooks. The rules' totals are then
    /// whole but for the stories not run (see ``RunRules/end(notRun:rejectedFiles:duration:)``).
    mutating func finishHooks(emit: (RunEvent) -> Void) async {
        await runRunHooks(.afterRun, emit: emit)
        watchdog.stop()
    }

    /// Ends the run: runs the after-run hooks, lists the definitions no
    /// story used and emits the totals.
    mutating func finish(emit: (RunEvent) -> Void) async -> RunSummary {
        await finishHooks(emit: emit)
        let summary = rules.end(notRun: [], rejectedFiles: [], duration: now() &- start).summary
        emit(.runFinished(summary))
        return summary
    }

    /// Runs one attempt at a story in the current task, or, once a step that
    /// overran its limit has cancelled the current task, in a task of its
    /// own, so that cancellation reaches nothing after that step.
    private func attempt(_ story: Story, matches: [MatchResult], emit: (RunEvent) -> Void) async -> StoryResult {
        let execution = StoryExecution(
            registry: registry, configuration: configuration, now: now, watchdog: watchdog, story: story, matches: matches,
            probe: probe)
        guard Task.isCancelled else { return await execution.run(emit: emit) }
        return await withoutActuallyEscaping(emit) { emit in
            // The caller waits for the task at once: nothing is used by two
            // tasks at the same time.
            let work = UncheckedBox((execution, emit))
            return await Task.detached { UncheckedBox(await work.value.0.run(emit: work.value.1)) }.value.value
        }
    }

    private mutating func runRunHooks(_ kind: Hook.Kind, emit: (RunEvent) -> Void) async {
        // A dry run runs no user code at all.
        guard !configuration.isDryRun else { return }
        // After-run hooks run last-registered first, as Cucumber's AfterAll.
        let hooks = registry.hooks.enumerated().filter { $0.element.kind == kind }
        for (index, hook) in kind == .afterRun ? hooks.reversed() : hooks {
            let start = now()
            var result = HookResult(kind: kind.rawValue, location: hook.location, status: .passed, error: nil, duration: 0)
            probe?.beginHook(index: index, around: 0, seconds: configuration.stepTimeout)
            let recorder = AttachmentRecorder()
            // Under the time limit like every other hook: a hook that awaits
            // is cancelled when it overruns, and fails naming itself.
            let watchdog = self.watchdog
            let limit = configuration.stepTimeout
            let isWorker = probe != nil
            let body: @Sendable () async -> UncheckedBox<(any Error)?> = {
                withUnsafeCurrentTask { watchdog.watch($0) }
                defer { watchdog.unwatch() }
                CrashNote.setHook(hook)
                defer { CrashNote.setHook(nil) }
                watchdog.arm(seconds: limit)
                let mask = UserCodeSignals.enter(isWorker: isWorker)
                defer { UserCodeSignals.leave(mask) }
                do {
                    try await AttachmentRecorder.$current.withValue(recorder) { try await hook.body(nil) }
                } catch {
                    return UncheckedBox(watchdog.disarm() ? HookTimeoutError(seconds: limit, hook: hook) : error)
                }
                return UncheckedBox(watchdog.disarm() ? HookTimeoutError(seconds: limit, hook: hook) : nil)
            }
            // Once an overrun has cancelled this task, in a task of its own.
            let failure = Task.isCancelled ? await Task.detached(operation: body).value.value : await body().value
            if let error = failure {
                rules.runHookFailed(kind)
                let cause = StepError(error)
                let message = error is HookTimeoutError ? cause.message : "the \(kind.rawValue) hook failed: \(cause.message)"
                result.status = .failed
                result.error = StepError(message: message, location: cause.location ?? hook.location)
                emit(.diagnostic(Diagnostic(at: hook.location, problem: message)))
            }
            result.attachments = recorder.take() + (probe?.end() ?? [])
            result.duration = now() &- start
            processState.restore()
            emit(.runHookFinished(result))
        }
    }
}

extension Runner {
    /// How to run.
    struct Configuration {
        /// Whether an ambiguous step fails (Cucumber's `--strict`).
        var isStrict = false
        /// Whether to match every step and run none.
        var isDryRun = false
        /// Whether to stop after the first failing story.
        var isFailFast = false
        /// How many more times to run a failing story.
        var retries = 0
        /// The most seconds a step may run.
        var stepTimeout: Double = 300
        /// How snippets for undefined steps write their pattern.
        var snippetStyle: Snippet.Style = .regex
        /// Whether an undefined step's result carries the definition it was
        /// probably meant for and its snippet. A worker leaves them out: its
        /// parent tells every undefined step itself
        /// (``StoryExecution/undefinedDetails(for:in:style:)``), so the
        /// search is not made twice.
        var tellsUndefinedSteps = true
        /// Whether a story's progress is emitted (`storyStarted`,
        /// `stepStarted`, `stepFinished`): only when a reporter reads it.
        var emitsStoryProgress = true
    }
}

/// Carries a value into a child task that its parent awaits at once, so the
/// value is never used by two tasks at the same time.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
