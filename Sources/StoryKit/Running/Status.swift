/// What happened to a step.
public enum StepStatus: String, Sendable, Codable, CaseIterable {
    /// The step ran and did not fail.
    case passed
    /// The step threw, failed an expectation, or an argument did not convert.
    case failed
    /// No step definition matches the step.
    case undefined
    /// The step did not run because an earlier one failed or was pending,
    /// in a dry run, or it called ``skip(_:file:line:)``.
    case skipped
    /// Several definitions match and `--strict` is on, so the step failed.
    case ambiguous
    /// The step called ``pending(_:file:line:)``: it is not written yet.
    case pending
}

/// What happened to a story.
public enum StoryStatus: String, Sendable, Codable, CaseIterable {
    /// Every step passed.
    case passed
    /// A step failed (or was ambiguous under `--strict`).
    case failed
    /// A step had no definition, so no step ran.
    case undefined
    /// No step ran (a dry run), or a step or before hook called
    /// ``skip(_:file:line:)``.
    case skipped
    /// A step called ``pending(_:file:line:)``; fails the run under `--strict`.
    case pending

    /// The status in capitals, as the terminal report labels a story.
    var label: String {
        switch self {
        case .passed: "PASSED"
        case .failed: "FAILED"
        case .undefined: "UNDEFINED"
        case .skipped: "SKIPPED"
        case .pending: "PENDING"
        }
    }
}
