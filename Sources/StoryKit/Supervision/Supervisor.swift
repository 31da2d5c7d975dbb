#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The parent of a supervised run: it never runs user code. It hands
/// stories in batches to worker processes, turns their answers into run
/// events, and alone decides the verdict.
///
/// A worker that crashes, exits, overruns a time limit (a step's or a
/// hook's) or is interrupted is ended with its whole process group; the
/// story it was in fails at the test step it was in, with what that step
/// printed; the stories it had not started go to another worker.
struct Supervisor: StoryExecutor {
    let registry: StepRegistry
    let configuration: Runner.Configuration
    /// How many workers run at once.
    let workerCount: Int
    /// The options a worker needs to run stories as this run would.
    let workerArguments: [String]
    let now: @Sendable () -> UInt64

    /// The worker started before the parent registered its step classes,
    /// so that its start-up and registration overlap the parent's.
    nonisolated(unsafe) private static var prestarted: (arguments: [String], workers: [SupervisedWorker]) = ([], [])

    /// Starts the first worker now, for the run that follows (only on the
    /// main thread, before ``run(next:emit:warn:)``); a worker that cannot
    /// start now is tried again, and its problem reported, by the run. (The
    /// others of `--jobs` start when the run's stories prove slow.)
    ///
    /// With `forking`, from the entry point before anything else ran, the
    /// worker is this process forked when that is safe: then this returns
    /// true in the worker, which goes on to run as `--worker arguments`.
    @discardableResult
    static func prestart(arguments: [String], forking: Bool = false) -> Bool {
        // Started already (from the entry point, for these arguments).
        if prestarted.arguments == arguments && !prestarted.workers.isEmpty { return false }
        discardPrestarted()
        Orphans.adopt()
        Orphans.noteOwn()
        var workers: [SupervisedWorker] = []
        switch try? SupervisedWorker.start(arguments: arguments, forking: forking) {
        case .worker?: return true
        case .parent(let worker)?: workers.append(worker)
        case nil: break
        }
        prestarted = (arguments, workers)
        PhaseTimer.mark("workers-started")
        return false
    }

    /// Workers that said they were done and were killed, not yet reaped.
    nonisolated(unsafe) static var retired: [pid_t] = []

    /// Waits for the workers retired during a run (killed already: a
    /// moment), then ends whatever they handed over. A thread a step left
    /// running may have started a process after its worker's last sweep and
    /// before the worker was killed: it comes to this process (a subreaper)
    /// only once the worker has exited. The run calls this once its reports
    /// are written, so the wait overlaps them; no process of the run is left
    /// behind.
    static func endRetired() {
        guard !retired.isEmpty else { return }
        for pid in retired {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        retired = []
        Orphans.endHandedOver(keeping: [])
    }

    /// Ends the workers started ahead when no run follows.
    static func discardPrestarted() {
        for worker in takePrestarted(arguments: nil) { discard(worker) }
    }

    private static func discard(_ worker: SupervisedWorker) {
        worker.kill(.interrupted(SIGTERM))
        var status: Int32 = 0
        _ = waitpid(worker.process.pid, &status, 0)
        worker.release()
    }

    static func takePrestarted(arguments: [String]?) -> [SupervisedWorker] {
        let (started, workers) = prestarted
        prestarted = ([], [])
        if let arguments, started != arguments {
            for worker in workers { discard(worker) }
            return []
        }
        return workers
    }

    /// Runs every story `next` gives in worker processes and emits their
    /// events (see ``SupervisedRun``); the ``StoryExecutor`` of a
    /// supervised run.
    func run(
        next: () -> PlannedStory?, rules: inout RunRules, emit: (RunEvent) -> Void, warn: (String) -> Void
    ) -> [SourceLocation] {
        withoutActuallyEscaping(next) { next in
            withoutActuallyEscaping(emit) { emit in
                withoutActuallyEscaping(warn) { warn in
                    var run = SupervisedRun(supervisor: self, rules: rules, next: next, emit: emit, warn: warn)
                    defer { rules = run.rules }
                    return StandardOutput.gathering { run.run() }
                }
            }
        }
    }

    /// How long a story whose worker died had run: from when the worker
    /// started it (or its latest attempt), not from when it was sent, which
    /// may be hundreds of stories earlier.
    static func elapsed(since snapshot: SharedPosition.Snapshot, sentAt: UInt64, now: () -> UInt64) -> UInt64 {
        guard snapshot.storyStart != 0 else { return now() &- sentAt }
        return DispatchTime.now().uptimeNanoseconds &- snapshot.storyStart
    }

    /// The result of a story that passed, from its compact line: the
    /// definitions and captured texts come from the worker, so the parent
    /// need not match; nil when the line does not fit the story.
    func rebuild(_ planned: PlannedStory, status: StoryStatus = .passed, duration: UInt64, testSteps: [WorkerWire.PassedTestStep]) -> StoryResult? {
        let story = planned.story
        var verdict = WorkerWire.CompactVerdict()
        verdict.note(testSteps)
        guard verdict.fits(status) else { return nil }
        var results: [TestStepResult] = []
        results.reserveCapacity(testSteps.count)
        var index = 0
        for testStep in testSteps {
            guard let result = Self.rebuild(testStep, stepIndex: &index, story: story, registry: registry, style: configuration.snippetStyle)
            else { return nil }
            results.append(result)
        }
        guard index == story.steps.count else { return nil }
        return StoryResult(story: story, status: status, testSteps: results, duration: duration)
    }

    /// One test step of a compact answer: a hook (by registry index), or
    /// `story`'s step at `stepIndex` (then the next); nil when either is
    /// out of range, or the step is said undefined and is not (an
    /// undefined step is told here as the runner tells it, with `style`'s
    /// snippet: ``StoryExecution/undefinedResult(for:in:style:)``).
    static func rebuild(
        _ testStep: WorkerWire.PassedTestStep, stepIndex index: inout Int, story: Story, registry: StepRegistry, style: Snippet.Style
    ) -> TestStepResult? {
        if let hook = testStep.hook {
            guard hook >= 0, hook < registry.hooks.count else { return nil }
            let registered = registry.hooks[hook]
            return .hook(HookResult(kind: registered.kind.rawValue, location: registered.location, status: .passed, error: nil, duration: testStep.duration))
        }
        guard index < story.steps.count else { return nil }
        if testStep.status == .undefined {
            // Checked, never taken on the worker's word (matching here runs
            // no user code, or the worker would not answer compactly).
            let step = story.steps[index]
            guard !registry.matchingRunsUserCode, registry.matches(step).isUndefined else { return nil }
            index += 1
            return .step(StoryExecution.undefinedResult(for: step, in: registry, style: style))
        }
        guard testStep.definition >= 0, testStep.definition < registry.definitions.count else { return nil }
        let definition = registry.definitions[testStep.definition]
        index += 1
        let step = story.steps[index - 1]
        // The worker's spans, kept only when they place its arguments in the step's text.
        let spans = WorkerClaims.checked(testStep.spans, arguments: testStep.arguments, text: step.text, definition: definition)
        return .step(StepResult(
            step: step, status: testStep.status, duration: testStep.duration, error: nil,
            match: MatchInfo(definition, arguments: testStep.arguments, spans: spans), alsoMatched: []))
    }

    /// Whether running a crashed story again could change its verdict, by
    /// the runner's rule (``Runner/canChange(_:isStrict:)``). Matched here
    /// only for a story whose worker crashed (this process does not match
    /// otherwise).
    func canChange(_ planned: PlannedStory) -> Bool {
        Runner.canChange(planned.matches ?? planned.story.steps.map { registry.matches($0) }, isStrict: configuration.isStrict)
    }

    /// A story its worker could not run.
    static func lost(_ story: Story, _ reason: String) -> StoryResult {
        let error = StepError(message: reason)
        var steps = story.steps.map { StepResult(step: $0, status: .skipped, duration: 0, error: nil, match: nil, alsoMatched: []) }
        if !steps.isEmpty {
            steps[0].status = .failed
            steps[0].error = error
            return StoryResult(story: story, status: .failed, steps: steps, duration: 0)
        }
        return StoryResult(
            story: story, status: .failed,
            testSteps: [.hook(HookResult(kind: "story", location: story.location, status: .failed, error: error, duration: 0))], duration: 0)
    }
}
