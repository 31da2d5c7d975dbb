import Testing
@testable import StoryKit

/// The exit status as a table: every rule of ``RunVerdict`` in one row, so
/// a change to one shows here, not in an end-to-end run.
@Suite(.timeLimit(.minutes(10))) struct RunVerdictTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var summary: RunSummary
        var facts = RunVerdict.Facts()
        var status: StoryKit.ExitStatus
        var notes: [RunVerdict.Note] = []
        var testDescription: String { name }
    }

    static func totals(
        passed: Int = 0, failed: Int = 0, undefined: Int = 0, pending: Int = 0, notRun: Int = 0, failedHooks: Int = 0,
        interrupted: Bool = false, rejectedFiles: [String] = []
    ) -> RunSummary {
        var summary = RunSummary()
        for (status, count) in [(StoryStatus.passed, passed), (.failed, failed), (.undefined, undefined), (.pending, pending)] where count > 0 {
            summary.stories[status] = count
        }
        summary.notRun = notRun
        summary.failedHooks = failedHooks
        summary.wasInterrupted = interrupted
        summary.rejectedFiles = rejectedFiles
        return summary
    }

    static let strict = RunVerdict.Facts(isStrict: true)

    static let rows: [Row] = [
        Row(name: "all passed", summary: totals(passed: 3), status: .success),
        Row(name: "a story failed", summary: totals(passed: 2, failed: 1), status: .storyFailed),
        Row(name: "a story did not run", summary: totals(passed: 2, notRun: 1), status: .storyFailed),
        Row(name: "a run hook failed", summary: totals(passed: 2, failedHooks: 1), status: .storyFailed),
        Row(name: "interrupted, the signal not yet known", summary: totals(passed: 1, interrupted: true), status: .storyFailed),
        Row(name: "undefined passes without --strict", summary: totals(passed: 1, undefined: 1), status: .success),
        Row(name: "undefined fails under --strict", summary: totals(passed: 1, undefined: 1), facts: strict, status: .storyFailed),
        Row(name: "pending fails under --strict", summary: totals(pending: 1), facts: strict, status: .storyFailed),
        Row(
            name: "a rerun file that ran nothing", summary: totals(),
            facts: .init(readsRerunFiles: true), status: .inputError, notes: [.rerunRanNothing]),
        Row(
            name: "a rerun file whose files were rejected says no more", summary: totals(rejectedFiles: ["a.feature"]),
            facts: .init(readsRerunFiles: true, rejectedInputs: 1), status: .inputError),
        Row(name: "--tags chose nothing", summary: totals(), facts: .init(choosesByNameOrTags: true), status: .success, notes: [.nothingChosen]),
        Row(
            name: "--tags chose nothing under --strict", summary: totals(),
            facts: .init(isStrict: true, choosesByNameOrTags: true), status: .storyFailed, notes: [.nothingChosen]),
        Row(name: "a folder with no story file", summary: totals(), facts: .init(foundStoryFiles: false), status: .success, notes: [.noStoryFile]),
        Row(
            name: "a folder with no story file under --strict", summary: totals(),
            facts: .init(isStrict: true, foundStoryFiles: false), status: .storyFailed, notes: [.noStoryFile]),
        Row(
            name: "a path that is an error says no more", summary: totals(),
            facts: .init(foundStoryFiles: false, hasPathErrors: true, rejectedInputs: 1), status: .inputError),
        Row(name: "files with no story in them", summary: totals(), status: .success, notes: [.noStoryIn]),
        Row(name: "files with no story in them under --strict", summary: totals(), facts: strict, status: .storyFailed, notes: [.noStoryIn]),
        Row(
            name: "filters left out some stories of a rerun file", summary: totals(passed: 1),
            facts: .init(readsRerunFiles: true, choosesByNameOrTags: true, rerunLeftOutAll: false), status: .success, notes: [.rerunLeftOut]),
        Row(
            name: "filters left out every story of a rerun file", summary: totals(passed: 0, notRun: 0),
            facts: .init(readsRerunFiles: true, choosesByNameOrTags: true, rerunLeftOutAll: true), status: .inputError,
            notes: [.rerunRanNothing]),
        Row(
            name: "filters left out every story a rerun file named, others ran", summary: totals(passed: 2),
            facts: .init(readsRerunFiles: true, choosesByNameOrTags: true, rerunLeftOutAll: true), status: .inputError,
            notes: [.rerunLeftOut]),
        Row(
            name: "filters left out every story a rerun file named, another failed", summary: totals(failed: 1),
            facts: .init(readsRerunFiles: true, rerunLeftOutAll: true), status: .storyFailed, notes: [.rerunLeftOut]),
        Row(name: "a report that could not be written", summary: totals(passed: 1), facts: .init(reportProblems: 1), status: .inputError),
        Row(name: "a report problem in a failed run", summary: totals(failed: 1), facts: .init(reportProblems: 1), status: .inputError),
        Row(name: "a rejected file among passing stories", summary: totals(passed: 1), facts: .init(rejectedInputs: 1), status: .inputError),
        Row(name: "SIGINT", summary: totals(passed: 1, notRun: 2, interrupted: true), facts: .init(signal: 2), status: .interrupted),
        Row(name: "SIGTERM after every story passed", summary: totals(passed: 3), facts: .init(signal: 15), status: .terminated),
        Row(name: "SIGHUP with a report problem", summary: totals(passed: 1), facts: .init(reportProblems: 1, signal: 1), status: .hungUp),
        Row(name: "a signal and a rejected file", summary: totals(passed: 1), facts: .init(rejectedInputs: 1, signal: 2), status: .inputError),
    ]

    @Test("The exit status and notes", arguments: rows)
    func verdict(_ row: Row) {
        let verdict = RunVerdict.of(row.summary, row.facts)
        #expect(verdict.status == row.status)
        #expect(verdict.notes == row.notes)
    }

    @Test("Never 0 when a story failed or did not run, whatever the facts")
    func neverGreenWithFailures() {
        let failing = [Self.totals(failed: 1), Self.totals(notRun: 1), Self.totals(failedHooks: 1), Self.totals(passed: 1, interrupted: true)]
        for summary in failing {
            for strict in [false, true] {
                for rerun in [false, true] {
                    for byName in [false, true] {
                        for leftOutAll in [nil, false, true] as [Bool?] {
                            let facts = RunVerdict.Facts(
                                isStrict: strict, readsRerunFiles: rerun, choosesByNameOrTags: byName, rerunLeftOutAll: leftOutAll)
                            #expect(RunVerdict.of(summary, facts).status != .success, "\(summary) \(facts)")
                        }
                    }
                }
            }
        }
    }
}
