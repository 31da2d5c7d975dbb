/// One attempt at running one story: hooks, steps, and their results.
struct StoryExecution {
    let registry: StepRegistry
    let configuration: Runner.Configuration
    /// The current time in nanoseconds.
    let now: @Sendable () -> UInt64
    let watchdog: StepWatchdog
    let story: Story
    let matches: [MatchResult]

    /// Runs the story and returns its result; step results go to `emit` as
    /// they happen.
    func run(emit: (RunEvent) -> Void) async -> StoryResult {
        let start = now()
        CrashNote.set(story)
        let context = StoryContext()
        withUnsafeCurrentTask { watchdog.watch($0) }
        defer { watchdog.unwatch() }
        var state = State()
        state.steps.reserveCapacity(story.steps.count)
        let isUndefined = matches.contains { $0.isUndefined }
        let runsSteps = !isUndefined && !configuration.isDryRun
        await StoryStore.$currentStore.withValue(context.store) {
            if runsSteps {
                for hook in hooks(.beforeStory) where !state.hasFailed {
                    await runHook(hook, context: context, state: &state)
                }
            }
            for (step, match) in zip(story.steps, matches) {
                let result = await run(step, match: match, isUndefined: isUndefined, context: context, state: &state, emit: emit)
                emit(.stepFinished(result))
                state.steps.append(result)
            }
            if runsSteps {
                for hook in hooks(.afterStory).reversed() {
                    await runHook(hook, context: context, state: &state)
                }
            }
        }
        let status: StoryStatus =
            if isUndefined { .undefined }
            else if state.hasFailed { .failed }
            else if configuration.isDryRun { .skipped }
            else { .passed }
        return StoryResult(story: story, status: status, steps: state.steps, duration: now() &- start, hooks: state.hooks)
    }

    /// What an attempt has done so far.
    private struct State {
        var steps: [StepResult] = []
        var hooks: [HookResult] = []
        var hasFailed = false
    }

    private func run(
        _ step: Step, match: MatchResult, isUndefined: Bool, context: StoryContext, state: inout State,
        emit: (RunEvent) -> Void
    ) async -> StepResult {
        var result = StepResult(
            step: step, status: .skipped, duration: 0, error: nil,
            match: match.winner.map(MatchInfo.init),
            alsoMatched: match.matches.dropFirst().map(MatchInfo.init))
        if match.isUndefined {
            result.status = .undefined
            result.didYouMean = Suggestion.closest(to: step, in: registry.definitions).map(MatchInfo.init)
        } else if isUndefined || state.hasFailed || (configuration.isDryRun && !(match.isAmbiguous && configuration.isStrict)) {
            result.status = .skipped
        } else if match.isAmbiguous && configuration.isStrict {
            result.status = .ambiguous
            result.error = StepError(message: "\(match.matches.count) step definitions match this step and --strict is on")
            state.hasFailed = true
        } else if let winner = match.winner {
            emit(.stepStarted(step))
            let stepStart = now()
            for hook in hooks(.beforeStep) where !state.hasFailed {
                await runHook(hook, context: context, state: &state)
            }
            if state.hasFailed {
                result.status = .failed
                result.error = StepError(message: "a before-step hook failed (see the story's hooks)")
            } else {
                do {
                    try await invoke(winner, step: step, context: context)
                    result.status = .passed
                } catch {
                    result.status = .failed
                    result.error = StepError(error)
                    state.hasFailed = true
                }
            }
            for hook in hooks(.afterStep).reversed() {
                await runHook(hook, context: context, state: &state)
            }
            result.duration = now() &- stepStart
        }
        return result
    }

    private func invoke(_ winner: Match, step: Step, context: StoryContext) async throws {
        let site = ArgumentSite(step: step, definitionLocation: winner.definition.location)
        CrashNote.setStep(line: step.location.line)
        defer { CrashNote.setStep(line: 0) }
        watchdog.arm(seconds: configuration.stepTimeout)
        do {
            try await winner.definition.invoke(context, winner.inputs, site)
        } catch {
            if watchdog.disarm() { throw StepTimeoutError(seconds: configuration.stepTimeout, step: step) }
            throw error
        }
        if watchdog.disarm() { throw StepTimeoutError(seconds: configuration.stepTimeout, step: step) }
    }

    private func hooks(_ kind: Hook.Kind) -> [Hook] {
        registry.hooks.filter { $0.kind == kind && $0.appliesTo(story.tags) }
    }

    private func runHook(_ hook: Hook, context: StoryContext, state: inout State) async {
        let start = now()
        var result = HookResult(kind: hook.kind.rawValue, location: hook.location, status: .passed, error: nil, duration: 0)
        do {
            try await hook.body(context)
        } catch {
            let cause = StepError(error)
            result.status = .failed
            result.error = StepError(
                message: "the \(hook.kind.rawValue) hook at \(hook.location.displayFileAndLine) failed: \(cause.message)",
                location: cause.location ?? hook.location)
            state.hasFailed = true
        }
        result.duration = now() &- start
        state.hooks.append(result)
    }
}
