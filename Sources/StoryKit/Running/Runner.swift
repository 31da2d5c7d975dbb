/// Runs stories one after another and reports what happens as events.
///
/// Per story the runner makes a ``StoryContext`` (step class instances and
/// the store), matches every step, and runs them in order: a story with an
/// undefined step runs no step; after a failing step the rest are skipped.
/// Stories are handed to it one at a time, so a run never holds them all.
struct Runner {
    /// How to run.
    struct Configuration {
        /// Whether an ambiguous step fails (Cucumber's `--strict`).
        var isStrict = false
        /// Whether to match every step and run none.
        var isDryRun = false
    }

    let registry: StepRegistry
    let configuration: Configuration
    /// The current time in nanoseconds; injected so golden reports are stable.
    let now: @Sendable () -> UInt64
    private let start: UInt64
    private var matcher: CachingMatcher
    private var reportedAmbiguities: Set<[Int]> = []
    /// The totals so far.
    private(set) var summary = RunSummary()

    init(registry: StepRegistry, configuration: Configuration, now: @escaping @Sendable () -> UInt64) {
        self.registry = registry
        self.configuration = configuration
        self.now = now
        start = now()
        matcher = CachingMatcher(registry: registry)
    }

    /// Runs a list of stories from start to finish: the whole run.
    mutating func run(_ stories: [Story], emit: (RunEvent) -> Void) async -> RunSummary {
        emit(.runStarted(fileCount: Set(stories.map(\.location.file)).count))
        for story in stories { await run(story, emit: emit) }
        return finish(emit: emit)
    }

    /// Runs one story and adds it to the totals.
    mutating func run(_ story: Story, emit: (RunEvent) -> Void) async {
        emit(.storyStarted(story))
        let matches = story.steps.map { matcher.matches($0) }
        for (step, result) in zip(story.steps, matches) where result.isAmbiguous {
            if reportedAmbiguities.insert(result.matches.map(\.definition.id)).inserted {
                emit(.diagnostic(AmbiguityDiagnostic.make(step: step, result: result, isStrict: configuration.isStrict)))
            }
        }
        let result = await run(story, matches: matches, emit: emit)
        summary.add(result)
        emit(.storyFinished(result))
    }

    /// Ends the run: lists the definitions no story used and emits the totals.
    mutating func finish(emit: (RunEvent) -> Void) -> RunSummary {
        summary.unusedDefinitions = registry.definitions
            .filter { !matcher.usedDefinitions.contains($0.id) }
            .map { UnusedDefinition(pattern: $0.pattern, location: $0.location) }
        summary.duration = now() &- start
        emit(.runFinished(summary))
        return summary
    }

    private func run(_ story: Story, matches: [MatchResult], emit: (RunEvent) -> Void) async -> StoryResult {
        let start = now()
        var results: [StepResult] = []
        let isUndefined = matches.contains { $0.isUndefined }
        var hasFailed = false
        let context = StoryContext()
        await StoryStore.$currentStore.withValue(context.store) {
            for (step, match) in zip(story.steps, matches) {
                var result = StepResult(
                    step: step, status: .skipped, duration: 0, error: nil,
                    match: match.winner.map(MatchInfo.init),
                    alsoMatched: match.matches.dropFirst().map(MatchInfo.init))
                if match.isUndefined {
                    result.status = .undefined
                } else if isUndefined || hasFailed || configuration.isDryRun {
                    result.status = .skipped
                } else if match.isAmbiguous && configuration.isStrict {
                    result.status = .ambiguous
                    result.error = StepError(
                        message: "\(match.matches.count) step definitions match this step and --strict is on")
                    hasFailed = true
                } else if let winner = match.winner {
                    let stepStart = now()
                    do {
                        try await winner.definition.invoke(
                            context, winner.inputs,
                            ArgumentSite(line: step.line, location: step.location, definitionLocation: winner.definition.location))
                        result.status = .passed
                    } catch {
                        result.status = .failed
                        result.error = StepError(error)
                        hasFailed = true
                    }
                    result.duration = now() &- stepStart
                }
                emit(.stepFinished(result))
                results.append(result)
            }
        }
        let status: StoryStatus =
            if isUndefined { .undefined }
            else if hasFailed { .failed }
            else if configuration.isDryRun { .skipped }
            else { .passed }
        return StoryResult(story: story, status: status, steps: results, duration: now() &- start)
    }
}
