/// The result for a story whose worker process died or hung.
enum WorkerFailure {
    /// How a worker ended.
    enum Reason: Sendable {
        case exit(Int32, String?)
        case signal(Int32, String?)
        case timedOut(Double)
    }

    /// The story as failed at the step it was in, with the rest skipped.
    static func result(for story: Story, at failedStep: Step?, reason: Reason, elapsed: UInt64) -> StoryResult {
        let message: String
        switch reason {
        case .signal(let signal, let detail):
            message = "the worker process crashed with signal \(signal) (\(name(of: signal))) in this step" + (detail.map { "\n\($0)" } ?? "")
        case .exit(let code, let detail):
            message = "the worker process exited with status \(code) in this step" + (detail.map { "\n\($0)" } ?? "")
        case .timedOut(let limit):
            let seconds = limit == limit.rounded() ? String(Int(limit)) : String(limit)
            message = "the step ran past its \(seconds) s limit (--step-timeout) and did not stop, so its worker process was stopped"
        }
        let failedIndex = story.steps.firstIndex { $0 == failedStep } ?? 0
        let steps = story.steps.enumerated().map { index, step in
            StepResult(
                step: step, status: index < failedIndex ? .passed : index == failedIndex ? .failed : .skipped,
                duration: index == failedIndex ? elapsed : 0,
                error: index == failedIndex ? StepError(message: message) : nil, match: nil, alsoMatched: [])
        }
        return StoryResult(story: story, status: .failed, steps: steps, duration: elapsed)
    }

    static func name(of signal: Int32) -> String {
        switch signal {
        case 4: "SIGILL, a trap such as fatalError or a failed precondition"
        case 5: "SIGTRAP, a trap such as fatalError or a failed precondition"
        case 6: "SIGABRT"
        case 9: "SIGKILL"
        case 11: "SIGSEGV, a bad memory access"
        case 15: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
