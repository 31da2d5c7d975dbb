/// Writes one self-contained HTML page a product owner can read: a verdict
/// and the totals, the stories that need attention, then every story grouped
/// by file, each with its steps marked by status.
///
/// The page needs no network (inline CSS and JavaScript). The stories are
/// data (JSON in the page) that its script builds a chunk at a time as the
/// reader scrolls, a story's steps when it is opened, so a run of 100,000
/// stories opens in seconds. With JavaScript off it shows the verdict, the
/// totals and every story that needs attention. Patterns, Swift places and
/// snippets are technical details, hidden until asked for.
public struct HTMLReporter: Reporter {
    let path: String
    let title: String
    /// The story files in the order their first story finished.
    var files: [FileSection] = []
    var fileIndex: [String: Int] = [:]
    /// The file of the last story and its index in ``files``.
    var lastFile: (path: String, index: Int)?
    /// Each story's part of the page (and its line in "Needs attention"),
    /// written as it finishes.
    var spill: ReportSpill?
    /// The story files, read once for all their stories (and all reports).
    var fileInfos = StoryFileInfo.Recent().reader()
    /// Each step definition's pattern and place, as HTML.
    let matchFragments = MatchFragments()
    var diagnostics: [Diagnostic] = []
    var summary = RunSummary()
    var runHooks: [HookResult] = []

    /// Creates a reporter that writes to a path when the run is over.
    public init(path: String, title: String = "Stories") {
        self.path = path
        self.title = title
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result):
            add(result)
        case .diagnostic(let diagnostic):
            diagnostics.append(diagnostic)
        case .runFinished(let summary):
            self.summary = summary
        case .runHookFinished(let hook):
            if hook.status == .failed { runHooks.append(hook) }
        case .runStarted, .storyStarted, .stepStarted, .stepFinished, .storyFileRejected:
            break
        }
    }

    public mutating func finish() throws {
        let spill = spill ?? ReportSpill(near: path)
        try AtomicFile.write(to: path) { file throws(Diagnostic) in
            try writePage({ text throws(Diagnostic) in try file.write(text) }, copy: { places throws(Diagnostic) in try spill.copy(places, to: file) })
        }
    }

    /// The whole page.
    var page: String {
        var bytes: [UInt8] = []
        let spill = spill
        try? writePage({ bytes.append(contentsOf: $0.utf8) }, copy: { places throws(Diagnostic) in
            try spill?.read(places, for: path) { bytes.append(contentsOf: $0) }
        })
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the page: its text through `write`, the stories' parts
    /// (from the spill) through `copy`.
    private func writePage(
        _ write: (String) throws(Diagnostic) -> Void, copy: ([ReportSpill.Place]) throws(Diagnostic) -> Void
    ) throws(Diagnostic) {
        try write("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title.htmlEscaped) — \(verdict.htmlEscaped)</title>
            <style>\(HTMLReporter.css)</style></head>
            <body><header>
            <h1>\(title.htmlEscaped)</h1>
            <p class="verdict \(hasProblems ? "bad" : "good")">\(verdict.htmlEscaped)</p>
            \(cards)
            \(bar(summary.stories, total: storyCount, label: "Stories by status"))
            <p class="counts">Steps: \(TextReporter.counts(summary.steps, order: StepStatus.allCases)) &middot; took \(Self.duration(summary.duration))</p>
            </header>
            <nav class="tools" hidden>
            <input type="search" placeholder="Search stories and steps…" aria-label="Search stories and steps">
            <button type="button" data-action="expand">Expand all</button><button type="button" data-action="collapse">Collapse all</button>
            <label><input type="checkbox" data-action="technical"> Technical details</label>
            <span class="shown" aria-live="polite"></span>
            </nav><main>

            """)
        try writeAttention(write, copy: copy)
        try write("<noscript><p class=\"note\">The page lists every story with JavaScript on; without it, the stories that need attention are above.</p></noscript>\n"
            + "<div class=\"stories\"></div>\n<script type=\"application/json\" id=\"storyrun-data\">{\"files\":[")
        for (number, section) in files.enumerated() {
            try write(String(decoding: header(of: section, first: number == 0), as: UTF8.self))
            try copy(section.stories)
            try write("]}")
        }
        try write("]}</script>\n")
        try write(problems)
        try write("<p class=\"empty hidden\">No story matches.</p></main>\n"
            + "<footer>Written by storyrun \(StoryRun.version)</footer>\n"
            + "<script>\(HTMLReporter.script)</script></body></html>\n")
    }

    /// How many stories "Needs attention" lists before "Show all".
    static let attentionShown = 20

    /// The failed run hooks and the first stories that failed, are
    /// undefined or pending, with a count of the rest: listed after them
    /// when scripts are off, on "Show all" when on.
    private func writeAttention(
        _ write: (String) throws(Diagnostic) -> Void, copy: ([ReportSpill.Place]) throws(Diagnostic) -> Void
    ) throws(Diagnostic) {
        let hooks = runHooks.map { hook in
            let message = Self.hookMessage(hook, hook.error?.message ?? "failed").ansiStripped
            let elsewhere = hook.error?.location.flatMap { $0 == hook.location ? nil : " — at " + $0.displayFileAndLine.htmlEscaped } ?? ""
            return "<li class=\"failed\"><span class=\"status\">failed</span><b>\((hook.kind.prefix(1).uppercased() + hook.kind.dropFirst()).htmlEscaped) hook</b> \(hook.location.displayFileAndLine.htmlEscaped)"
                + " <span class=\"why\">\(message.htmlEscaped)\(elsewhere)</span></li>"
        }
        let attention = files.flatMap(\.attention)
        guard !attention.isEmpty || !hooks.isEmpty else { return }
        // Each item is written with the line end before it.
        try write("<section class=\"attention\"><h2>Needs attention</h2><ul>" + hooks.map { "\n" + $0 }.joined())
        try copy(Array(attention.prefix(Self.attentionShown)))
        try write("\n</ul>")
        if attention.count > Self.attentionShown {
            let rest = attention.count - Self.attentionShown
            try write("\n<p class=\"more\">and \(rest) more \(rest == 1 ? "story" : "stories") <button type=\"button\" data-action=\"attention\" data-shown=\"\(Self.attentionShown)\" hidden>Show all \(attention.count)</button></p>\n<noscript><ul>")
            try copy(Array(attention.dropFirst(Self.attentionShown)))
            try write("\n</ul></noscript>")
        }
        try write("</section>\n")
    }

    var storyCount: Int { summary.stories.values.reduce(0, +) }

    var hasProblems: Bool {
        summary.stories[.failed, default: 0] + summary.stories[.undefined, default: 0] + summary.stories[.pending, default: 0] + runHooks.count > 0
    }

    /// One sentence on the run as a whole.
    var verdict: String {
        let total = storyCount
        let passed = summary.stories[.passed, default: 0]
        let failing = summary.stories[.failed, default: 0] + summary.stories[.undefined, default: 0] + summary.stories[.pending, default: 0]
        if total == 0 { return "No stories ran" }
        if !runHooks.isEmpty && failing == 0 { return "A \(runHooks[0].kind) hook failed" }
        if failing == 0 && passed == total { return total == 1 ? "The story passes" : "All \(total) stories pass" }
        if failing == 0 { return "\(passed) of \(total) stories pass; the rest did not run" }
        return "\(failing) of \(total) \(total == 1 ? "story needs" : "stories need") attention"
    }

    private var cards: String {
        var html = "<div class=\"cards\" role=\"group\" aria-label=\"Show stories by status\">"
        html += "<button type=\"button\" class=\"card all on\" data-filter=\"all\"><b>\(storyCount)</b> stories</button>"
        for status in StoryStatus.allCases {
            let count = summary.stories[status, default: 0]
            guard count > 0 || status == .passed || status == .failed else { continue }
            html += "<button type=\"button\" class=\"card \(status.rawValue)\" data-filter=\"\(status.rawValue)\"><b>\(count)</b> \(status.rawValue)</button>"
        }
        return html + "</div>"
    }

    /// A bar of coloured segments, one per status, as wide as its share.
    func bar(_ counts: [StoryStatus: Int], total: Int, label: String) -> String {
        let segments = StoryStatus.allCases.compactMap { status -> String? in
            let count = counts[status, default: 0]
            guard count > 0 else { return nil }
            let width = Double(count) * 100 / Double(max(1, total))
            return "<span class=\"\(status.rawValue)\" style=\"width:\(String(format: "%.2f", width))%\" title=\"\(count) \(status.rawValue)\"></span>"
        }.joined()
        return "<div class=\"bar\" role=\"img\" aria-label=\"\(label.htmlEscaped)\">\(segments)</div>"
    }

    /// Why a story did not pass, in one line; a hook's place is left to
    /// the hook's own line on the page (its message named it again).
    static func reason(_ result: StoryResult) -> String {
        guard let failing = result.firstFailure, let hook = failing.hookResult, let error = hook.error else { return result.reason }
        var plain = hook
        plain.error?.message = hookMessage(hook, error.message)
        return "\(failing.title) — \(TestStepResult.hook(plain).shortReason)"
    }

    /// The notes for developers, but for a failed run hook's, which
    /// "Needs attention" already gives (a hook failure is said once).
    private var problems: String {
        let diagnostics = diagnostics.filter { note in !runHooks.contains { $0.location == note.location } }
        guard !diagnostics.isEmpty else { return "" }
        let errors = diagnostics.filter(\.isError).count
        var html = "<details class=\"problems\"\(errors > 0 ? " open" : "")><summary>\(diagnostics.count) note\(diagnostics.count == 1 ? "" : "s") for developers</summary><ul>"
        for diagnostic in diagnostics {
            html += "<li class=\"\(diagnostic.severity.rawValue)\"><pre>\(diagnostic.rendered().htmlEscaped)</pre></li>"
        }
        return html + "</ul></details>\n"
    }

    static func anchor(_ file: Int, _ story: Int) -> String { "s\(file + 1)-\(story + 1)" }

    /// Appends ``anchor(_:_:)`` without making a String of it (one per story).
    static func writeAnchor(_ file: Int, _ story: Int, into html: inout [UInt8]) {
        html.append(UInt8(ascii: "s"))
        html.decimal(file + 1)
        html.append(UInt8(ascii: "-"))
        html.decimal(story + 1)
    }

    static func duration(_ nanoseconds: UInt64) -> String {
        if nanoseconds < 1_000_000_000, let text = DecimalText.fixed(nanoseconds, unit: 1_000_000, digits: 0) { return text + " ms" }
        if nanoseconds >= 1_000_000_000, let text = DecimalText.fixed(nanoseconds, unit: 1_000_000_000, digits: 2) { return text + " s" }
        let milliseconds = Double(nanoseconds) / 1_000_000
        return milliseconds < 1000 ? String(format: "%.0f ms", milliseconds) : String(format: "%.2f s", milliseconds / 1000)
    }
}
