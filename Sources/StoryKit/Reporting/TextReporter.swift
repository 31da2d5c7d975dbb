/// Writes the terminal report: one line per story, the failing step and its
/// error, undefined steps with snippets, warnings, and the totals.
public struct TextReporter: Reporter {
    private let style: TextStyle
    private let isVerbose: Bool
    private let listsUnused: Bool
    /// Whether that list includes step libraries' definitions.
    private let listsLibraryUnused: Bool
    private let write: (String) -> Void
    private var snippets: [String] = []
    private var seenSnippets: Set<String> = []
    private var ambiguousSteps = 0

    /// Creates a text reporter.
    /// - Parameters:
    ///   - style: How to colour the text.
    ///   - isVerbose: Whether to list every step with the definition it matched.
    ///   - listsUnused: Whether to list the step definitions no story used
    ///     at the end: only after a run of every story, where it is news.
    ///   - listsLibraryUnused: Whether that list includes step libraries'
    ///     definitions (`--show-library-unused`).
    ///   - write: Where each line of text goes.
    public init(
        style: TextStyle, isVerbose: Bool = false, listsUnused: Bool = true, listsLibraryUnused: Bool = false,
        write: @escaping (String) -> Void
    ) {
        self.listsLibraryUnused = listsLibraryUnused
        self.style = style
        self.isVerbose = isVerbose
        self.listsUnused = listsUnused
        self.write = write
    }

    /// It reads each story whole, from `storyFinished`.
    public var readsStoryProgress: Bool { false }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .diagnostic(let diagnostic):
            write(diagnostic.rendered(style: style))
        case .storyFinished(let result):
            // By index: a `for case` loop would copy every step's result.
            for index in result.testSteps.indices {
                if case .step(let step) = result.testSteps[index], !step.alsoMatched.isEmpty, step.status != .ambiguous { ambiguousSteps += 1 }
            }
            report(result)
        case .runFinished(let summary):
            reportEnd(summary)
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .runHookFinished, .storyFileRejected:
            // A failed run hook comes as a diagnostic too, written above.
            break
        }
    }

    private mutating func report(_ result: StoryResult) {
        let label = style.paint(result.status.label, TextStyle.color(for: result.status))
        let flaky = result.isFlaky ? "  " + style.paint("(flaky: passed on attempt \(result.attempts))", .yellow) : ""
        let place = style.paint(result.story.location.displayFileAndLine, .gray)
        // Made in one buffer of the right size: a line per story.
        var line = ""
        line.reserveCapacity(label.utf8.count + result.story.name.utf8.count + place.utf8.count + flaky.utf8.count + 4)
        line += label
        line += "  "
        line += result.story.name
        line += "  "
        line += place
        line += flaky
        write(line)
        // Failed hooks and steps in the order they ran, so the first
        // failure listed is the story's first, as in every other report.
        for testStep in result.testSteps {
            let step: StepResult
            switch testStep {
            case .hook(let hook) where hook.status == .pending || hook.status == .skipped:
                guard let error = hook.error else { continue }
                write("    \(style.paint(hook.status.rawValue + ":", TextStyle.color(for: hook.status))) \(hook.kind) hook: \(ReportText.cut(error.message))")
                if let place = error.location { write("      \(style.paint("at \(place.displayFileAndLine)", .gray))") }
                continue
            case .hook(let hook):
                guard hook.status == .failed else { continue }
                // The message names the hook and where it was registered.
                write("    \(style.paint("failed:", .red)) \(hook.error.map { ReportText.cut($0.message) } ?? "the \(hook.kind) hook at \(hook.location.displayFileAndLine) failed")")
                if let place = hook.error?.location { write("      \(style.paint("at \(place.displayFileAndLine)", .gray))") }
                for line in Self.printed(hook.attachments, style: style) { write(line) }
                continue
            case .step(let stepResult): step = stepResult
            }
            switch step.status {
            case .failed, .ambiguous:
                write("    \(style.paint(step.status.rawValue + ":", .red)) \(step.step.line)  \(step.step.location.displayFileAndLine)")
                if let error = step.error {
                    for line in ReportText.cut(error.message).split(separator: "\n", omittingEmptySubsequences: false) {
                        write("      \(line)")
                    }
                    if let place = error.location {
                        write("      \(style.paint("at \(place.displayFileAndLine)", .gray))")
                    }
                }
                // What the failing step printed: the first thing to read.
                for line in Self.printed(step.attachments, style: style) { write(line) }
            case .undefined:
                write("    \(style.paint("undefined:", .yellow)) \(step.step.line)  \(step.step.location.displayFileAndLine)")
                if let guess = step.didYouMean {
                    write("      did you mean \"\(guess.pattern)\"  \(style.paint(guess.location.displayFileAndLine, .gray))?")
                }
                let snippet = step.snippet ?? Snippet(for: step.step).code()
                if seenSnippets.insert(snippet).inserted { snippets.append(snippet) }
            case .skipped where step.error != nil, .pending:
                // The reason given to pending(_:) or skip(_:).
                let reason = step.error.map { ": " + ReportText.cut($0.message) } ?? ""
                write("    \(style.paint(step.status.rawValue + ":", TextStyle.color(for: step.status))) \(step.step.line)  \(step.step.location.displayFileAndLine)\(reason)")
                if let place = step.error?.location { write("      \(style.paint("at \(place.displayFileAndLine)", .gray))") }
            case .passed, .skipped:
                if isVerbose { write("    \(style.paint(step.status.rawValue + ":", TextStyle.color(for: step.status))) \(step.step.line)") }
            }
            if isVerbose, let match = step.match {
                write("      \(style.paint("matched \"\(match.pattern)\" at \(match.location.displayFileAndLine)", .gray))")
            }
        }
    }

    private func reportEnd(_ summary: RunSummary) {
        for line in Self.ending(
            summary, snippets: snippets, style: style, listsUnused: listsUnused, listsLibraryUnused: listsLibraryUnused,
            ambiguousSteps: ambiguousSteps) { write(line) }
    }

    /// The lines that end a terminal report: snippets for the undefined
    /// steps, the unused step definitions (when `listsUnused`), the totals.
    static func ending(
        _ summary: RunSummary, snippets: [String], style: TextStyle, listsUnused: Bool = true, listsLibraryUnused: Bool = false,
        ambiguousSteps: Int = 0
    ) -> [String] {
        let unused = listsLibraryUnused ? summary.unusedDefinitions : summary.unusedDefinitions.filter { !$0.isFromLibrary }
        var lines: [String] = []
        if !snippets.isEmpty {
            lines.append("")
            lines.append("Define the undefined steps with these snippets in a step class:")
            for snippet in snippets {
                lines.append("")
                lines.append(snippet.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            }
        }
        let storyCount = summary.stories.values.reduce(0, +)
        if listsUnused && !unused.isEmpty && storyCount > 0 {
            lines.append("")
            lines.append("Step definitions no story used:")
            for unused in unused.prefix(Self.unusedListLimit) {
                lines.append("    \"\(unused.pattern)\"  \(style.paint(unused.location.displayFileAndLine, .gray))")
            }
            if unused.count > Self.unusedListLimit {
                lines.append("    … and \(unused.count - Self.unusedListLimit) more (`check` lists them all)")
            }
        }
        lines.append("")
        let flaky = summary.flaky > 0 ? " (\(summary.flaky) flaky)" : ""
        let notRun = summary.notRun > 0 ? ", \(summary.notRun) not run" : ""
        lines.append("Stories: " + counts(summary.stories, order: StoryStatus.allCases) + notRun + flaky)
        lines.append("Steps: " + counts(summary.steps, order: StepStatus.allCases))
        let failedHooks = summary.failedStoryHooks + summary.failedHooks
        if failedHooks > 0 { lines.append("Hooks: \(failedHooks) failed") }
        if ambiguousSteps > 0 {
            lines.append(style.paint("Warning: \(ambiguousSteps) step\(ambiguousSteps == 1 ? "" : "s") matched more than one definition (see above); --strict fails them", .yellow))
        }
        return lines
    }

    /// How many unused definitions the end of a run lists.
    static let unusedListLimit = 20

    /// `N passed, N failed`, then the other statuses that are not zero.
    static func counts<S: RawRepresentable<String> & Hashable>(_ counts: [S: Int], order: [S]) -> String {
        order.enumerated().compactMap { index, status in
            let count = counts[status, default: 0]
            return index < 2 || count > 0 ? "\(count) \(status.rawValue)" : nil
        }.joined(separator: ", ")
    }

    /// What a test step printed or logged, indented under it: each text
    /// attachment's lines after a gray label (`stdout`, `stderr`, `log`),
    /// cut as every report cuts attachments (``Attachment/reportBody``).
    static func printed(_ attachments: [Attachment], style: TextStyle) -> [String] {
        attachments.filter(\.isText).flatMap { attachment in
            let label = attachment.name ?? (attachment.mediaType == Attachment.logMediaType ? "log" : attachment.mediaType)
            let text = (attachment.reportBody ?? "") + (attachment.limitNote.map { "\n" + $0 } ?? "")
            return text.split(separator: "\n", omittingEmptySubsequences: false)
                .reversed().drop { $0.isEmpty }.reversed()
                .map { "      " + style.paint("\(label) │ ", .gray) + String($0) }
        }
    }
}
