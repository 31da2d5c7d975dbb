/// Writes the terminal report story by story: each story's name, then each
/// step as it finishes, in its status colour, with failures under the step.
///
/// With `--verbose` every step also shows the pattern that matched it and
/// where that step definition is.
public struct PrettyReporter: Reporter {
    private let style: TextStyle
    private let isVerbose: Bool
    private let listsUnused: Bool
    /// Whether that list includes step libraries' definitions.
    private let listsLibraryUnused: Bool
    private let write: (String) -> Void
    private var snippets: [String] = []
    private var seenSnippets: Set<String> = []

    /// Creates a pretty reporter.
    /// - Parameters:
    ///   - style: How to colour the text.
    ///   - isVerbose: Whether to show each step's matching definition.
    ///   - write: Where each line of text goes.
    ///   - listsUnused: Whether a verbose report lists the step definitions
    ///     no story used (only after a run of every story).
    ///   - listsLibraryUnused: Whether that list includes step libraries'
    ///     definitions (`--show-library-unused`).
    public init(
        style: TextStyle, isVerbose: Bool = false, listsUnused: Bool = true, listsLibraryUnused: Bool = false,
        write: @escaping (String) -> Void
    ) {
        self.listsLibraryUnused = listsLibraryUnused
        self.listsUnused = listsUnused
        self.style = style
        self.isVerbose = isVerbose
        self.write = write
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyStarted(let story):
            let tags = story.tags.isEmpty ? "" : style.paint(story.tags.joined(separator: " "), .cyan) + "\n"
            write("\(tags)\(style.paint("Story:", .bold)) \(story.name)  \(style.paint("# " + story.location.displayFileAndLine, .gray))")
        case .stepFinished(let result):
            report(result)
        case .storyFinished(let result):
            // Hooks have no event as they finish: the failed ones show here.
            // Skipped and pending hooks show the reason they gave.
            for hook in result.hooks where hook.status == .failed || (hook.status != .passed && hook.error != nil) {
                let color = TextStyle.color(for: hook.status)
                write("  " + style.paint("\(hook.kind) hook (\(hook.status.rawValue))", color) + "  " + style.paint("# " + hook.location.displayFileAndLine, .gray))
                for text in ReportText.cut(hook.error?.message ?? "").split(separator: "\n", omittingEmptySubsequences: false) {
                    write("      " + style.paint(String(text), color))
                }
                if let place = hook.error?.location { write("      " + style.paint("at \(place.displayFileAndLine)", .gray)) }
            }
            if let note = result.attemptsNote {
                for text in note.split(separator: "\n") { write("  " + style.paint(String(text), .yellow)) }
            }
            write("  " + style.paint("→ \(result.status.rawValue)", TextStyle.color(for: result.status)) + style.paint(" (\(HTMLReporter.duration(result.duration)))", .gray))
            write("")
        case .diagnostic(let diagnostic):
            write(diagnostic.rendered(style: style))
        case .runFinished(let summary):
            for line in TextReporter.ending(summary, snippets: snippets, style: style, listsUnused: isVerbose && listsUnused, listsLibraryUnused: listsLibraryUnused) { write(line) }
        case .runStarted, .stepStarted, .runHookFinished, .storyFileRejected:
            break
        }
    }

    private mutating func report(_ result: StepResult) {
        let color = TextStyle.color(for: result.status)
        var line = "  " + style.paint(result.step.line, color)
        if result.status != .passed { line += " " + style.paint("(\(result.status.rawValue))", color) }
        if isVerbose, let match = result.match {
            line += "  " + style.paint("# \"\(match.pattern)\" \(match.location.displayFileAndLine)", .gray)
        }
        write(line)
        if let error = result.error {
            for text in ReportText.cut(error.message).split(separator: "\n", omittingEmptySubsequences: false) {
                write("      " + style.paint(String(text), result.status == .failed || result.status == .ambiguous ? .red : color))
            }
            if let place = error.location { write("      " + style.paint("at \(place.displayFileAndLine)", .gray)) }
            write("      " + style.paint("in \(result.step.location.displayFileAndLine)", .gray))
        }
        for line in TextReporter.printed(result.attachments, style: style) { write(line) }
        if result.status == .undefined {
            let snippet = result.snippet ?? Snippet(for: result.step).code()
            if seenSnippets.insert(snippet).inserted { snippets.append(snippet) }
        }
    }
}
