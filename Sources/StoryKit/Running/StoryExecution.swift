/// One attempt at running one story: hooks, steps, and their results, as
/// the ordered list of test steps a report shows.
struct StoryExecution {
    let registry: StepRegistry
    let configuration: Runner.Configuration
    /// The current time in nanoseconds.
    let now: @Sendable () -> UInt64
    let watchdog: StepWatchdog
    let story: Story
    let matches: [MatchResult]
    /// In a worker process: where the parent can see each test step start,
    /// and what the step printed.
    let probe: WorkerProbe?

    /// Runs the story and returns its result; step results go to `emit` as
    /// they happen.
    ///
    /// As Cucumber does, the steps before an undefined one run, and every
    /// defined step after the first that did not pass (failed, undefined,
    /// pending, or skipped by ``skip(_:file:line:)``) is skipped; after
    /// hooks run in every case but a dry run.
    func run(emit: (RunEvent) -> Void) async -> StoryResult {
        let start = now()
        CrashNote.set(story)
        let context = StoryContext(story: story)
        withUnsafeCurrentTask { watchdog.watch($0) }
        defer { watchdog.unwatch() }
        var state = State()
        state.testSteps.reserveCapacity(story.steps.count)
        let runsHooks = !configuration.isDryRun
        await StoryStore.$currentStore.withValue(context.store) {
            await AttachmentRecorder.$current.withValue(context.recorder) {
                if runsHooks {
                    for (index, hook) in hooks(.beforeStory) where !state.hasFailed {
                        if state.stop != nil {
                            state.testSteps.append(.hook(HookResult(kind: hook.kind.rawValue, location: hook.location, status: .skipped, error: nil, duration: 0)))
                            continue
                        }
                        await runHook(hook, index: index, around: 0, context: context, state: &state)
                    }
                }
                // The step hooks that apply, found once for all the steps.
                let stepHooks = StepHooks(before: hooks(.beforeStep), after: hooks(.afterStep).reversed())
                // By index, each step and its match read where they are: a
                // step passed across a suspension would be copied.
                for index in 0..<min(story.steps.count, matches.count) {
                    await runStep(at: index, hooks: stepHooks, context: context, state: &state, emit: emit)
                }
                if runsHooks {
                    for (index, hook) in hooks(.afterStory).reversed() {
                        await runHook(hook, index: index, around: story.steps.count, context: context, state: &state)
                    }
                }
            }
        }
        // Output a worker found only now goes with the last step that ran.
        if let missed = probe?.endStory(), !missed.isEmpty, !state.testSteps.isEmpty {
            let ran = state.testSteps.lastIndex {
                if case .step(let step) = $0 { step.status != .skipped && step.status != .undefined } else { false }
            }
            state.testSteps[ran ?? state.testSteps.count - 1].attach(missed)
        }
        let status: StoryStatus =
            if state.hasFailed { .failed }
            else if state.hasUndefined { .undefined }
            else if state.stop == .pending { .pending }
            else if state.stop == .skipped || configuration.isDryRun { .skipped }
            else { .passed }
        return StoryResult(story: story, status: status, testSteps: state.testSteps, duration: now() &- start)
    }

    /// What an attempt has done so far.
    private struct State {
        var testSteps: [TestStepResult] = []
        var hasFailed = false
        /// Whether a step had no definition: the defined steps after it
        /// are skipped.
        var hasUndefined = false
        /// Set when a step was pending, or a step or hook skipped the story.
        var stop: StepStatus?
        /// Whether the steps from here on are skipped.
        var skipsSteps: Bool { hasFailed || hasUndefined || stop != nil }
    }

    /// The step hooks that apply to a story: before ones in order, after
    /// ones in reverse order (as they run).
    private struct StepHooks {
        var before: [(Int, Hook)]
        var after: [(Int, Hook)]
    }

    /// Runs the story's step at `index` between its step hooks; its result
    /// goes into the list between theirs.
    private func runStep(at index: Int, hooks stepHooks: StepHooks, context: StoryContext, state: inout State, emit: (RunEvent) -> Void) async {
        let match = matches[index]
        // The result's parts, put together once at the end.
        var status = StepStatus.skipped
        var error: StepError?
        var duration: UInt64 = 0
        var attachments: [Attachment] = []
        var undefined: (didYouMean: MatchInfo?, snippet: String)?
        func finish() {
            let result = StepResult(
                step: story.steps[index], status: status, duration: duration, error: error,
                match: match.matches.isEmpty ? nil : MatchInfo(match.matches[0]),
                alsoMatched: match.matches.count > 1 ? match.matches.dropFirst().map(MatchInfo.init) : [],
                didYouMean: undefined?.didYouMean, snippet: undefined?.snippet, attachments: attachments)
            if status == .failed || status == .ambiguous { context.noteFailure(error) }
            // Only a pending or skipped story has news for the context.
            if state.stop != nil { context.note(pending: state.stop == .pending, skipped: state.stop == .skipped) }
            if configuration.emitsStoryProgress { emit(.stepFinished(result)) }
            state.testSteps.append(.step(result))
            probe?.stepEnded?(state.testSteps)
        }
        // As Cucumber's: after skip(_:) every step is skipped; after any
        // other step that did not pass, undefined and (strict) ambiguous
        // steps still say so, and the rest are skipped.
        if state.stop == .skipped {
            status = .skipped
        } else if match.isUndefined {
            let step = story.steps[index]
            status = .undefined
            if configuration.tellsUndefinedSteps {
                undefined = Self.undefinedDetails(for: step, in: registry, style: configuration.snippetStyle)
            }
            state.hasUndefined = true
        } else if match.isAmbiguous && configuration.isStrict {
            status = .ambiguous
            error = StepError(message: "\(match.matches.count) step definitions match this step and --strict is on")
            state.hasFailed = true
        } else if state.skipsSteps || configuration.isDryRun {
            status = .skipped
        } else {
            for (hookIndex, hook) in stepHooks.before where !state.skipsSteps {
                await runHook(hook, index: hookIndex, around: index, context: context, state: &state)
            }
            let stepStart = now()
            var didRun = false
            if state.skipsSteps {
                status = .skipped
            } else {
                didRun = true
                (status, error, attachments) = await runCode(at: index, match: match, context: context, state: &state, emit: emit)
            }
            duration = now() &- stepStart
            finish()
            if didRun {
                for (hookIndex, hook) in stepHooks.after {
                    await runHook(hook, index: hookIndex, around: index, context: context, state: &state)
                }
            }
            return
        }
        finish()
    }

    /// What a run tells of an undefined step: the definition it was
    /// probably meant for, and the code that would define it. The one place
    /// of this rule: a supervised parent builds an undefined step's result
    /// through it too (``undefinedResult(for:in:style:)``), from a worker's
    /// word that the step is undefined, which it checks.
    static func undefinedDetails(for step: Step, in registry: StepRegistry, style: Snippet.Style) -> (didYouMean: MatchInfo?, snippet: String) {
        (Suggestion.closest(to: step, in: registry).map { MatchInfo($0) }, Snippet.suggested(for: step, in: registry, style: style).code())
    }

    /// An undefined step's result, as ``run(emit:)`` makes it (it runs no
    /// code, takes no time, attaches nothing).
    static func undefinedResult(for step: Step, in registry: StepRegistry, style: Snippet.Style) -> StepResult {
        let details = undefinedDetails(for: step, in: registry, style: style)
        return StepResult(
            step: step, status: .undefined, duration: 0, error: nil, match: nil, alsoMatched: [],
            didYouMean: details.didYouMean, snippet: details.snippet)
    }

    /// Runs the code of the story's step at `index` (its first match's):
    /// its status, its error (where it was raised, else at its definition),
    /// and what it attached or printed. A pending step or `skip(_:)` stops
    /// the story's steps; a failure fails the story.
    private func runCode(
        at index: Int, match: MatchResult, context: StoryContext, state: inout State, emit: (RunEvent) -> Void
    ) async -> (StepStatus, StepError?, [Attachment]) {
        if configuration.emitsStoryProgress { emit(.stepStarted(story.steps[index])) }
        probe?.beginStep(index: index, seconds: configuration.stepTimeout)
        let winner = match.matches[0]
        var status: StepStatus
        var error: StepError?
        do {
            try await invoke(winner.definition, inputs: winner.inputs, step: story.steps[index], context: context)
            status = .passed
        } catch let signal as PendingStep {
            status = .pending
            error = signal.reason.isEmpty ? nil : StepError(message: signal.reason, location: signal.location)
            state.stop = .pending
        } catch let signal as SkippedStory {
            status = .skipped
            error = signal.reason.isEmpty ? nil : StepError(message: signal.reason, location: signal.location)
            state.stop = state.stop ?? .skipped
        } catch let thrown {
            status = .failed
            error = StepError(thrown)
            // An error that does not say where it was raised is
            // reported at the definition that threw it.
            if error?.location == nil { error?.location = winner.definition.location }
            state.hasFailed = true
        }
        // Nearly always nothing: no arrays joined.
        let recorded = context.recorder.take()
        let printed = probe?.end() ?? []
        return (status, error, recorded.isEmpty && printed.isEmpty ? [] : recorded + printed)
    }

    private func invoke(_ definition: StepDefinition, inputs: [StepArgumentInput], step: Step, context: StoryContext) async throws {
        let site = ArgumentSite(step: step, definitionLocation: definition.location)
        CrashNote.setStep(line: step.location.line)
        defer { CrashNote.setStep(line: 0) }
        watchdog.arm(seconds: configuration.stepTimeout)
        let mask = UserCodeSignals.enter(isWorker: probe != nil)
        defer { UserCodeSignals.leave(mask) }
        do {
            try await definition.invoke(context, inputs, site)
        } catch {
            if watchdog.disarm() { throw StepTimeoutError(seconds: configuration.stepTimeout, step: step) }
            throw error
        }
        if watchdog.disarm() { throw StepTimeoutError(seconds: configuration.stepTimeout, step: step) }
        // A worker delivers it instead, so its parent sees the crash.
        if probe == nil, let signal = PendingSignals.take() { throw RaisedSignalError(signal: signal) }
    }

    /// The hooks of a kind that apply to the story, with their index in the
    /// registry.
    private func hooks(_ kind: Hook.Kind) -> [(Int, Hook)] {
        registry.hooks.enumerated().filter { $0.element.kind == kind && $0.element.appliesTo(story.tags) }
    }

    private func runHook(_ hook: Hook, index: Int, around step: Int, context: StoryContext, state: inout State) async {
        let start = now()
        var result = HookResult(kind: hook.kind.rawValue, location: hook.location, status: .passed, error: nil, duration: 0)
        probe?.beginHook(index: index, around: step, seconds: configuration.stepTimeout)
        watchdog.arm(seconds: configuration.stepTimeout)
        CrashNote.setHook(hook)
        defer { CrashNote.setHook(nil) }
        do {
            let mask = UserCodeSignals.enter(isWorker: probe != nil)
            defer { UserCodeSignals.leave(mask) }
            try await hook.body(context)
            if watchdog.disarm() { throw HookTimeoutError(seconds: configuration.stepTimeout, hook: hook) }
            if probe == nil, let signal = PendingSignals.take() { throw RaisedSignalError(signal: signal) }
        } catch {
            let timedOut = watchdog.disarm() || error is HookTimeoutError
            if !timedOut, let signal = error as? PendingStep {
                result.status = .pending
                result.error = signal.reason.isEmpty ? nil : StepError(message: signal.reason, location: signal.location)
                state.stop = .pending
            } else if !timedOut, let signal = error as? SkippedStory {
                // From an after hook, only that hook is skipped, as Cucumber's.
                result.status = .skipped
                result.error = signal.reason.isEmpty ? nil : StepError(message: signal.reason, location: signal.location)
                state.stop = state.stop ?? .skipped
            } else {
                result.status = .failed
                state.hasFailed = true
                let cause = timedOut ? StepError(HookTimeoutError(seconds: configuration.stepTimeout, hook: hook)) : StepError(error)
                result.error = StepError(
                    message: timedOut ? cause.message : "the \(hook.kind.rawValue) hook at \(hook.location.displayFileAndLine) failed: \(cause.message)",
                    location: cause.location ?? hook.location)
            }
        }
        result.attachments = context.recorder.take() + (probe?.end() ?? [])
        result.duration = now() &- start
        state.testSteps.append(.hook(result))
        if result.status == .failed { context.noteFailure(result.error) }
        context.note(pending: state.stop == .pending, skipped: state.stop == .skipped)
    }
}

/// A hook that ran past its time limit.
struct HookTimeoutError: LocatedError, CustomStringConvertible {
    var seconds: Double
    var hook: Hook

    var location: SourceLocation? { hook.location }

    var description: String {
        let limit = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
        return "the \(hook.kind.rawValue) hook at \(hook.location.displayFileAndLine) ran longer than its \(limit) s limit (--step-timeout)"
    }
}
