/// Writes the terminal report as Cucumber's `progress` format does: one
/// character per step as it finishes, then the failures and the totals.
///
/// `.` passed, `F` failed, `U` undefined, `-` skipped, `A` ambiguous, each in
/// its status colour. Warnings and input problems come after the characters,
/// so they never break the line.
public struct ProgressReporter: Reporter {
    private let style: TextStyle
    private let write: (String) -> Void
    private let writePartial: ((String) -> Void)?
    private var line = ""
    private var diagnostics: [Diagnostic] = []
    private var failures: [StoryResult] = []
    private var snippets: [String] = []
    private var seenSnippets: Set<String> = []

    /// Creates a progress reporter.
    /// - Parameters:
    ///   - style: How to colour the text.
    ///   - write: Where each whole line of text goes.
    ///   - writePartial: Where text without a line end goes, so the
    ///     characters appear as steps finish; when nil the characters are
    ///     written as one line when the run is over.
    public init(style: TextStyle, write: @escaping (String) -> Void, writePartial: ((String) -> Void)? = nil) {
        self.style = style
        self.write = write
        self.writePartial = writePartial
    }

    /// The character that shows a step status.
    static func character(for status: StepStatus) -> String {
        switch status {
        case .passed: "."
        case .failed: "F"
        case .undefined: "U"
        case .skipped: "-"
        case .pending: "P"
        case .ambiguous: "A"
        }
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .stepFinished(let result):
            let mark = style.paint(Self.character(for: result.status), TextStyle.color(for: result.status))
            if let writePartial { writePartial(mark) } else { line += mark }
            if result.status == .undefined {
                let snippet = result.snippet ?? Snippet(for: result.step).code()
                if seenSnippets.insert(snippet).inserted { snippets.append(snippet) }
            }
        case .storyFinished(let result):
            // Hooks have no event of their own as they finish: a failed one
            // shows when its story ends, as Cucumber's `F` for a hook does.
            for hook in result.hooks where hook.status == .failed {
                let mark = style.paint("F", .red)
                if let writePartial { writePartial(mark) } else { line += mark }
            }
            if result.status == .failed { failures.append(result) }
        case .diagnostic(let diagnostic):
            diagnostics.append(diagnostic)
        case .runFinished(let summary):
            if let writePartial { writePartial("\n") } else { write(line) }
            reportEnd(summary)
        case .runStarted, .storyStarted, .stepStarted, .runHookFinished, .storyFileRejected:
            break
        }
    }

    private func reportEnd(_ summary: RunSummary) {
        for diagnostic in diagnostics {
            write("")
            write(diagnostic.rendered(style: style))
        }
        if !failures.isEmpty {
            write("")
            write(style.paint("Failures:", .bold))
        }
        for (number, result) in failures.enumerated() {
            write("")
            write("\(number + 1)) \(result.story.name)  \(style.paint(result.story.location.displayFileAndLine, .gray))")
            for step in result.testSteps where step.isFailure {
                write("   \(style.paint(step.title, .red))  \(style.paint(step.place.displayFileAndLine, .gray))")
                for text in ReportText.cut(step.error?.message ?? "").split(separator: "\n") { write("      \(style.paint(String(text), .red))") }
                if let place = step.error?.location { write("      \(style.paint("at \(place.displayFileAndLine)", .gray))") }
            }
            if result.firstFailure == nil, result.wasInterrupted { write("   \(style.paint("the run was interrupted", .red))") }
        }
        for text in TextReporter.ending(summary, snippets: snippets, style: style, listsUnused: false) { write(text) }
        write("Time: \(JUnitReporter.seconds(summary.duration)) s")
    }
}
