/// Writes the terminal report: one line per story, the failing step and its
/// error, undefined steps with snippets, warnings, and the totals.
public struct TextReporter: Reporter {
    private let style: TextStyle
    private let isVerbose: Bool
    private let write: (String) -> Void
    private var snippets: [Snippet] = []
    private var seenSnippets: Set<Snippet> = []

    /// Creates a text reporter.
    /// - Parameters:
    ///   - style: How to colour the text.
    ///   - isVerbose: Whether to list every step with the definition it matched.
    ///   - write: Where each line of text goes.
    public init(style: TextStyle, isVerbose: Bool = false, write: @escaping (String) -> Void) {
        self.style = style
        self.isVerbose = isVerbose
        self.write = write
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .diagnostic(let diagnostic):
            write(diagnostic.rendered(style: style))
        case .storyFinished(let result):
            report(result)
        case .runFinished(let summary):
            reportEnd(summary)
        case .runStarted, .storyStarted, .stepFinished:
            break
        }
    }

    private mutating func report(_ result: StoryResult) {
        let label = style.paint(result.status.rawValue.uppercased(), TextStyle.color(for: result.status))
        write("\(label)  \(result.story.name)  \(style.paint(result.story.location.displayFileAndLine, .gray))")
        for step in result.steps {
            switch step.status {
            case .failed, .ambiguous:
                write("    \(style.paint(step.status.rawValue + ":", .red)) \(step.step.line)  \(step.step.location.displayFileAndLine)")
                if let error = step.error {
                    for line in error.message.split(separator: "\n", omittingEmptySubsequences: false) {
                        write("      \(line)")
                    }
                    if let place = error.location {
                        write("      \(style.paint("at \(place.displayFileAndLine)", .gray))")
                    }
                }
            case .undefined:
                write("    \(style.paint("undefined:", .yellow)) \(step.step.line)  \(step.step.location.displayFileAndLine)")
                let snippet = Snippet(for: step.step)
                if seenSnippets.insert(snippet).inserted { snippets.append(snippet) }
            case .passed, .skipped:
                if isVerbose { write("    \(style.paint(step.status.rawValue + ":", TextStyle.color(for: step.status))) \(step.step.line)") }
            }
            if isVerbose, let match = step.match {
                write("      \(style.paint("matched \"\(match.pattern)\" at \(match.location.displayFileAndLine)", .gray))")
            }
        }
    }

    private func reportEnd(_ summary: RunSummary) {
        for line in Self.ending(summary, snippets: snippets, style: style) { write(line) }
    }

    /// The lines that end a terminal report: snippets for the undefined
    /// steps, the unused step definitions (when `listsUnused`), the totals.
    static func ending(_ summary: RunSummary, snippets: [Snippet], style: TextStyle, listsUnused: Bool = true) -> [String] {
        var lines: [String] = []
        if !snippets.isEmpty {
            lines.append("")
            lines.append("Define the undefined steps with these snippets in a step class:")
            for snippet in snippets {
                lines.append("")
                lines.append(snippet.code().split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            }
        }
        if listsUnused && !summary.unusedDefinitions.isEmpty {
            lines.append("")
            lines.append("Step definitions no story used:")
            for unused in summary.unusedDefinitions {
                lines.append("    \"\(unused.pattern)\"  \(style.paint(unused.location.displayFileAndLine, .gray))")
            }
        }
        lines.append("")
        lines.append("Stories: " + counts(summary.stories, order: StoryStatus.allCases))
        lines.append("Steps: " + counts(summary.steps, order: StepStatus.allCases))
        return lines
    }

    /// `N passed, N failed`, then the other statuses that are not zero.
    static func counts<S: RawRepresentable<String> & Hashable>(_ counts: [S: Int], order: [S]) -> String {
        order.enumerated().compactMap { index, status in
            let count = counts[status, default: 0]
            return index < 2 || count > 0 ? "\(count) \(status.rawValue)" : nil
        }.joined(separator: ", ")
    }
}
