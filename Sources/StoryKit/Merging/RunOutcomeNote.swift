import Foundation

/// What failed a run besides its stories, hooks and story files: problems
/// the run gave as notes (a worker out of descriptors, an answer out of
/// turn), an interrupt, and stories it did not run.
///
/// A Messages stream says it where the schema has a place for what went
/// wrong outside every test case: `testRunFinished.exception`. Its
/// `message` is the sentence a person reads; its `stackTrace` holds the
/// same as lines `storyrun merge` reads back (`interrupted: true`,
/// `failures: N`, `not run: N`, then a `path:line` for each story not run).
struct RunOutcomeNote: Equatable {
    /// The exception type that marks the note.
    static let type = "storyrun.RunNotComplete"

    var otherFailures = 0
    var notRun = 0
    var wasInterrupted = false
    var notRunStories: [SourceLocation] = []

    /// Whether there is anything to say.
    var isEmpty: Bool { otherFailures == 0 && notRun == 0 && !wasInterrupted }

    /// The note of a run's totals; `failedRunHooks` of its failed hooks
    /// are said by their own envelopes.
    init(summary: RunSummary, failedRunHooks: Int) {
        otherFailures = max(0, summary.failedHooks - failedRunHooks)
        notRun = summary.notRun
        wasInterrupted = summary.wasInterrupted
        notRunStories = summary.notRunStories
    }

    init(otherFailures: Int = 0, notRun: Int = 0, wasInterrupted: Bool = false, notRunStories: [SourceLocation] = []) {
        self.otherFailures = otherFailures
        self.notRun = notRun
        self.wasInterrupted = wasInterrupted
        self.notRunStories = notRunStories
    }

    /// No note when all it would say is stories not run that the stream
    /// gives as pickles with no test case (as Cucumber does: a run whose
    /// setup failed ends with no exception); else the whole note, which
    /// keeps the run's order of every story not run.
    func omitting(_ pickled: Set<SourceLocation>) -> RunOutcomeNote {
        guard otherFailures == 0, !wasInterrupted, notRun == notRunStories.count, notRunStories.allSatisfy(pickled.contains) else {
            return self
        }
        return RunOutcomeNote()
    }

    /// "N problems outside the stories and M stories not run", or nil
    /// when both are 0.
    static func describe(failures: Int, notRun: Int) -> String? {
        let parts = [
            failures > 0 ? "\(failures) problem\(failures == 1 ? "" : "s") outside the stories" : nil,
            notRun > 0 ? "\(notRun) stor\(notRun == 1 ? "y" : "ies") not run" : nil,
        ].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " and ")
    }

    /// The sentence: "the run was interrupted: 2 stories not run".
    var message: String {
        let what = Self.describe(failures: otherFailures, notRun: notRun)
        return (wasInterrupted ? "the run was interrupted" + (what.map { ": \($0)" } ?? "") : what ?? "the run did not complete")
    }

    /// `testRunFinished.exception`: the run's own errors (a worker that
    /// could not start) and the sentence, then the lines merge reads back.
    func exception(runErrors: [String] = []) -> JSONValue {
        var lines = ["interrupted: \(wasInterrupted)", "failures: \(otherFailures + runErrors.count)", "not run: \(notRun)"]
        lines += notRunStories.map { "\($0.file):\($0.line)" }
        let said = runErrors + (isEmpty ? [] : [message])
        return .object([
            ("type", .string(Self.type)), ("message", .string(said.joined(separator: "\n"))),
            ("stackTrace", .string(lines.joined(separator: "\n"))),
        ])
    }

    /// Reads the note back; nil for an exception of another type (a run
    /// of another tool's: one failure outside the stories).
    /// - Throws: A usage problem (without a place) when the lines are not
    ///   the note's.
    init?(reading exception: MessagesEnvelope.Exception) throws(Diagnostic) {
        guard exception.type == Self.type else { return nil }
        let lines = (exception.stackTrace ?? "").split(separator: "\n").map(String.init)
        func count(_ prefix: String, at index: Int) throws(Diagnostic) -> Int {
            guard index < lines.count, lines[index].hasPrefix(prefix), let count = Int(lines[index].dropFirst(prefix.count)), count >= 0 else {
                throw Diagnostic(at: nil, problem: "testRunFinished.exception.stackTrace has no \"\(prefix)N\" (N ≥ 0) on line \(index + 1)")
            }
            return count
        }
        guard let first = lines.first, ["interrupted: true", "interrupted: false"].contains(first) else {
            throw Diagnostic(at: nil, problem: "testRunFinished.exception.stackTrace does not start with \"interrupted: true\" or \"interrupted: false\"")
        }
        wasInterrupted = first == "interrupted: true"
        otherFailures = try count("failures: ", at: 1)
        notRun = try count("not run: ", at: 2)
        for line in lines.dropFirst(3) {
            guard let place = CucumberJSONDecoder.place(line) else {
                throw Diagnostic(at: nil, problem: "testRunFinished.exception.stackTrace line \"\(line)\" is not PATH:LINE")
            }
            notRunStories.append(place)
        }
        guard notRunStories.count <= notRun else {
            throw Diagnostic(at: nil, problem: "testRunFinished.exception.stackTrace names \(notRunStories.count) stories not run, more than its count \(notRun)")
        }
    }
}
