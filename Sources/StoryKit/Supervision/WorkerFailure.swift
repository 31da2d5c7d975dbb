/// The result for a story whose worker process died, overran or was
/// stopped: failed at the test step it was in, with the rest skipped.
enum WorkerFailure {
    /// How a worker ended.
    enum Reason: Sendable, Equatable {
        case exit(Int32)
        case signal(Int32)
        case timedOut(Double)
        case interrupted(Int32)
        /// The parent stopped the worker: a step closed or replaced its
        /// channel to the parent (descriptor 4), so nothing more it said
        /// could arrive.
        case channelLost
        /// The parent stopped the worker: its channel carried a line the
        /// worker never sends (said here), so nothing it says can be trusted.
        case badAnswer(String)
    }

    /// Why the test step failed, in words, with the runtime's own last
    /// word (a `Fatal error` line) when the step printed one. A worker can
    /// die while no test step runs (a thread the code started and left
    /// running, say): then it is blamed on the step it was at, and says so.
    /// `isRunHook`: the worker died in a before-run or after-run hook,
    /// which is no test step, and after which no new worker takes its
    /// place for that hook. `site`: where in the user's code it crashed
    /// (see ``CrashReport/site``).
    static func message(
        _ reason: Reason, printed: [Attachment], site: String? = nil, isBetweenTestSteps: Bool = false, isRunHook: Bool = false
    ) -> String {
        let message: String
        let when = isRunHook ? "in this hook" : isBetweenTestSteps ? "between test steps (a thread the code left running, say)" : "in this test step"
        let after = isRunHook ? "" : "; the run went on with a new worker"
        switch reason {
        case .signal(let signal):
            message = "the worker process crashed with signal \(signal) (\(name(of: signal))) \(when)\(site.map { ", \($0)" } ?? "")\(after)"
        case .exit(let code):
            message = "the worker process exited with status \(code) \(when) (did the code call exit()?)\(after)"
        case .timedOut(let limit):
            message = "the test step ran past its \(seconds(limit)) s limit (--step-timeout) and did not stop, so its worker process was stopped"
        case .interrupted(let signal):
            message = "the run was interrupted (\(name(of: signal))) while this test step ran"
        case .channelLost:
            message = "storyrun stopped the worker process: a step closed or replaced descriptor \(WorkerMain.messages), "
                + "its channel to storyrun, so nothing more it said could arrive"
        case .badAnswer(let what):
            message = "storyrun stopped the worker process: its channel to storyrun (descriptor \(WorkerMain.messages)) carried \(what), "
                + "which the worker never sends (a step in this story, or in one before it in that worker, may have written to it)\(after)"
        }
        let runtimeWord = printed.flatMap { $0.body.split(separator: "\n") }
            .last { $0.contains("Fatal error") || $0.contains("Precondition failed") || $0.contains("Assertion failed") }
        return message + (runtimeWord.map { "\n\($0)" } ?? "")
    }

    /// The story's result: passed up to the test step the worker was in,
    /// that step failed, the rest skipped.
    static func result(
        for story: Story, registry: StepRegistry, at position: SharedPosition.Snapshot, reason: Reason,
        printed: [Attachment], site: String? = nil, elapsed: UInt64
    ) -> StoryResult {
        let error = StepError(message: message(reason, printed: printed, site: site, isBetweenTestSteps: position.stepKind == .none))
        let index = min(position.stepIndex, story.steps.count)
        var statuses: [StepStatus]
        var testSteps: [TestStepResult] = []
        if position.stepKind == .hook, position.hookIndex < registry.hooks.count {
            let hook = registry.hooks[position.hookIndex]
            // Where the hook ran: before which step, and which steps had passed.
            let (insertAt, passedBefore): (Int, Int) =
                switch hook.kind {
                case .beforeStep: (index, index)
                case .afterStep: (index + 1, index + 1)
                case .afterStory: (story.steps.count, story.steps.count)
                default: (0, 0)
                }
            statuses = story.steps.indices.map { $0 < passedBefore ? .passed : .skipped }
            testSteps = statuses.indices.map { .step(StepResult(step: story.steps[$0], status: statuses[$0], duration: 0, error: nil, match: nil, alsoMatched: [])) }
            let failed = HookResult(
                kind: hook.kind.rawValue, location: hook.location, status: .failed,
                error: StepError(message: "the \(hook.kind.rawValue) hook at \(hook.location.displayFileAndLine): " + error.message, location: hook.location),
                duration: elapsed, attachments: printed)
            testSteps.insert(.hook(failed), at: min(insertAt, testSteps.count))
        } else if story.steps.isEmpty {
            testSteps = [.hook(HookResult(kind: "story", location: story.location, status: .failed, error: error, duration: elapsed, attachments: printed))]
        } else {
            // In a step, or between test steps: blame the step it was at.
            let failedAt = min(index, story.steps.count - 1)
            testSteps = story.steps.indices.map { at in
                var result = StepResult(
                    step: story.steps[at], status: at < failedAt ? .passed : at == failedAt ? .failed : .skipped,
                    duration: 0, error: nil, match: nil, alsoMatched: [])
                if at == failedAt {
                    result.error = error
                    result.duration = elapsed
                    result.attachments = printed
                }
                return .step(result)
            }
        }
        var result = StoryResult(story: story, status: .failed, testSteps: testSteps, duration: elapsed)
        if case .interrupted = reason { result.wasInterrupted = true }
        return result
    }

    /// A failed before-run or after-run hook for a worker that died in it.
    static func runHook(_ hook: Hook, reason: Reason, printed: [Attachment], site: String? = nil, elapsed: UInt64) -> HookResult {
        HookResult(
            kind: hook.kind.rawValue, location: hook.location, status: .failed,
            error: StepError(
                message: "the \(hook.kind.rawValue) hook at \(hook.location.displayFileAndLine): "
                    + message(reason, printed: printed, site: site, isRunHook: true),
                location: hook.location),
            duration: elapsed, attachments: printed)
    }

    static func seconds(_ limit: Double) -> String {
        limit == limit.rounded() && limit < 1e15 ? String(Int(limit)) : String(limit)
    }

    static func name(of signal: Int32) -> String {
        switch signal {
        case 1: "SIGHUP"
        case 2: "SIGINT"
        case 3: "SIGQUIT"
        case 4: "SIGILL, a trap such as fatalError or a failed precondition"
        case 5: "SIGTRAP, a trap such as fatalError or a failed precondition"
        case 6: "SIGABRT"
        case 7: "SIGBUS, a bad memory access"
        case 8: "SIGFPE, an arithmetic error"
        case 9: "SIGKILL"
        case 11: "SIGSEGV, a bad memory access or a stack overflow"
        case 10: "SIGUSR1"
        case 12: "SIGUSR2"
        case 13: "SIGPIPE"
        case 14: "SIGALRM"
        case 15: "SIGTERM"
        case 16: "SIGSTKFLT"
        case 24: "SIGXCPU"
        case 25: "SIGXFSZ"
        case 26: "SIGVTALRM"
        case 27: "SIGPROF"
        case 29: "SIGIO"
        case 30: "SIGPWR"
        case 31: "SIGSYS"
        default: "signal \(signal)"
        }
    }
}
