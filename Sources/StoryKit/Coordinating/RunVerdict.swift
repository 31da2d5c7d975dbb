/// A run's exit status, and what it says when it ran nothing: a pure
/// function of its totals and a few facts about what it selected and wrote,
/// so that every rule that decides the status is written once, here, and
/// tests can check it as a table (`RunVerdictTests`).
///
/// 0 when every story passed; 1 when a story failed or did not run, a run
/// hook failed, or (under `--strict`) a story was undefined, pending or
/// ambiguous, or nothing was chosen; 2 for input the run rejected or a
/// report it could not write; 128 + the signal's number when a signal
/// stopped it. Never 0 when a story failed or did not run.
struct RunVerdict: Equatable {
    /// What the run knew besides its totals.
    struct Facts: Equatable {
        var isStrict = false
        /// `--rerun FILE` chose the stories.
        var readsRerunFiles = false
        /// `--name` or `--tags` chose among them.
        var choosesByNameOrTags = false
        /// The paths named at least one story file.
        var foundStoryFiles = true
        /// A path given was an error (it named nothing readable).
        var hasPathErrors = false
        /// Problems in the input (bad lines, unreadable files) whose stories did not run.
        var rejectedInputs = 0
        /// `--name`/`--tags` left out stories a rerun file named: nil when
        /// none, true when every one.
        var rerunLeftOutAll: Bool?
        /// Reports that could not be written.
        var reportProblems = 0
        /// The signal that stopped the run, if one did.
        var signal: Int32?
    }

    /// What the run says of a selection that ran nothing, or of stories a
    /// rerun file named and the filters left out.
    enum Note: Equatable {
        case rerunRanNothing, nothingChosen, noStoryFile, noStoryIn, rerunLeftOut
    }

    var status: ExitStatus
    var notes: [Note] = []

    /// The verdict on a run with these totals and facts.
    static func of(_ summary: RunSummary, _ facts: Facts) -> RunVerdict {
        var verdict = RunVerdict(status: summary.hasFailures(strict: facts.isStrict) ? .storyFailed : .success)
        let ranNone = summary.stories.values.reduce(0, +) == 0 && summary.notRun == 0
        let failsUnderStrict: ExitStatus = facts.isStrict ? .storyFailed : verdict.status
        if facts.readsRerunFiles, ranNone, summary.rejectedFiles.isEmpty, verdict.status == .success {
            verdict = RunVerdict(status: .inputError, notes: [.rerunRanNothing])
        } else if facts.choosesByNameOrTags, ranNone {
            verdict = RunVerdict(status: failsUnderStrict, notes: [.nothingChosen])
        } else if !facts.foundStoryFiles, !facts.hasPathErrors {
            // A folder that holds no story file: said, not a silent "0 passed".
            verdict = RunVerdict(status: failsUnderStrict, notes: [.noStoryFile])
        } else if ranNone, facts.rejectedInputs == 0, summary.rejectedFiles.isEmpty {
            // Files with no story in them: said, as an empty folder is.
            verdict = RunVerdict(status: failsUnderStrict, notes: [.noStoryIn])
        }
        if let all = facts.rerunLeftOutAll, verdict.status != .inputError {
            verdict.notes.append(.rerunLeftOut)
            if all && verdict.status == .success { verdict.status = .inputError }
        }
        // A signal while the reports were written: they are whole, but the
        // run was asked to stop, and says so.
        if let signal = facts.signal { verdict.status = .stopped(by: signal) }
        if facts.reportProblems > 0 && !verdict.status.isStoppedBySignal { verdict.status = .inputError }
        if facts.rejectedInputs > 0 { verdict.status = .inputError }
        return verdict
    }
}
