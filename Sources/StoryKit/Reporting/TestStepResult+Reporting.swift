/// What every report says about a test step, so each tells the same story:
/// the failing step or hook, its reason and its places.
extension TestStepResult {
    /// Whether the test step failed (or was ambiguous under `--strict`).
    var isFailure: Bool { status == .failed || status == .ambiguous }

    /// The story step, for a step.
    var stepResult: StepResult? {
        if case .step(let step) = self { step } else { nil }
    }

    /// A story step's keyword and text; nil for a hook. (Taken alone: a
    /// `switch` on a test step in an array copies the step's whole result.)
    var keywordAndText: (keyword: String, text: String)? {
        if case .step(let step) = self { (step.step.keyword, step.step.text) } else { nil }
    }

    /// The hook, for a hook.
    var hookResult: HookResult? {
        if case .hook(let hook) = self { hook } else { nil }
    }

    /// How reports name it: the step line, or `before story hook`.
    var title: String {
        switch self {
        case .step(let step): step.step.line
        case .hook(let hook): "\(hook.kind) hook"
        }
    }

    /// Where it is written: the step's line, or where the hook was registered.
    var place: SourceLocation {
        switch self {
        case .step(let step): step.step.location
        case .hook(let hook): hook.location
        }
    }

    /// The first line of the error, or the status; at most
    /// ``shortReasonLimit`` characters, then "…" (a line of megabytes made a
    /// JUnit report that libxml2 readers refuse, and a terminal line no one
    /// reads).
    var shortReason: String {
        guard let line = error?.message.split(separator: "\n", maxSplits: 1).first else { return status.rawValue }
        guard line.utf8.count > Self.shortReasonLimit, line.count > Self.shortReasonLimit else { return String(line) }
        return line.prefix(Self.shortReasonLimit) + "…"
    }

    /// The most characters ``shortReason`` keeps.
    static let shortReasonLimit = 1_000

    /// The title, the error, where in Swift it was raised, and the place:
    /// the text JUnit and the terminal reports give a failure.
    var failureText: String {
        var lines = [title]
        if let error {
            lines.append(error.message)
            if let place = error.location { lines.append("at \(place.displayFileAndLine)") }
        }
        lines.append(place.displayFileAndLine)
        return lines.joined(separator: "\n")
    }
}

extension HookResult {
    /// Whether the hook runs around the story (`before story`, `after
    /// story`) rather than around a step or the run.
    var isStoryHook: Bool { kind.hasSuffix("story") }
    /// Whether the hook runs before (`before …`) rather than after.
    var isBefore: Bool { kind.hasPrefix("before") }
}

extension StoryResult {
    /// Why the story did not pass, in one line: the failing step or hook
    /// and the first line of its error, or the undefined steps.
    var reason: String {
        if let failing = firstFailure {
            return "\(failing.title) — \(failing.shortReason)"
        }
        let undefined = steps.filter { $0.status == .undefined }.count
        if undefined > 0 { return "\(undefined) step\(undefined == 1 ? " is" : "s are") not written yet" }
        return status.rawValue
    }

    /// Every attempt, oldest first, the last one included.
    var allAttempts: [StoryAttempt] {
        earlierAttempts + [StoryAttempt(status: status, testSteps: testSteps, duration: duration)]
    }

    /// `passed on attempt 2 of 2 (attempt 1: …)`, for a story run more than once.
    var attemptsNote: String? {
        guard attempts > 1 else { return nil }
        let earlier = earlierAttempts.enumerated().map { index, attempt in
            let failing = attempt.testSteps.first(where: \.isFailure)
            return "attempt \(index + 1) \(attempt.status.rawValue)" + (failing.map { ": \($0.title) — \($0.shortReason)" } ?? "")
        }
        let verdict = isFlaky ? "flaky: passed on attempt \(attempts)" : "\(status.rawValue) on attempt \(attempts)"
        return ([verdict] + earlier).joined(separator: "\n")
    }
}
