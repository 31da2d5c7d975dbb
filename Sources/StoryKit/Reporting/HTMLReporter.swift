/// Writes one self-contained HTML page a customer can read: a summary, then
/// the stories grouped by file, each with its steps coloured by status.
///
/// The page needs no network (inline CSS and a little JavaScript for the
/// filters and search) and reads fine with JavaScript off.
public struct HTMLReporter: Reporter {
    private let path: String
    private let title: String
    private var files: [String] = []
    private var results: [String: [StoryResult]] = [:]
    private var diagnostics: [Diagnostic] = []
    private var summary = RunSummary()

    /// Creates a reporter that writes to a path when the run is over.
    public init(path: String, title: String = "Stories") {
        self.path = path
        self.title = title
    }

    public mutating func handle(_ event: RunEvent) {
        switch event {
        case .storyFinished(let result):
            let file = result.story.location.file
            if results[file] == nil { files.append(file) }
            results[file, default: []].append(result)
        case .diagnostic(let diagnostic):
            diagnostics.append(diagnostic)
        case .runFinished(let summary):
            self.summary = summary
        case .runStarted, .storyStarted, .stepStarted, .stepFinished:
            break
        }
    }

    public mutating func finish() throws {
        try AtomicFile.write(page, to: path)
    }

    /// The whole page.
    var page: String {
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title.htmlEscaped)</title>
            <style>\(HTMLReporter.css)</style></head>
            <body><header><h1>\(title.htmlEscaped)</h1>
            \(summaryBar)
            <nav class="filters" hidden>
            <button data-filter="all" class="on">All</button><button data-filter="failed">Failed</button><button data-filter="undefined">Undefined</button>
            <input type="search" placeholder="Search stories and steps" aria-label="Search">
            </nav></header><main>

            """
        if !diagnostics.isEmpty {
            html += "<section class=\"problems\"><h2>Problems</h2><ul>"
            for diagnostic in diagnostics {
                html += "<li class=\"\(diagnostic.severity.rawValue)\"><pre>\(diagnostic.rendered().htmlEscaped)</pre></li>"
            }
            html += "</ul></section>\n"
        }
        for file in files {
            let stories = results[file] ?? []
            let failing = stories.filter { $0.status != .passed }.count
            html += "<section class=\"file\"><h2>\(file.htmlEscaped) <small>\(stories.count - failing)/\(stories.count) passed</small></h2>\n"
            for result in stories { html += story(result) }
            html += "</section>\n"
        }
        html += "</main><script>\(HTMLReporter.script)</script></body></html>\n"
        return html
    }

    private var summaryBar: String {
        let total = max(1, summary.stories.values.reduce(0, +))
        let segments = StoryStatus.allCases.compactMap { status -> String? in
            let count = summary.stories[status, default: 0]
            guard count > 0 else { return nil }
            let width = Double(count) * 100 / Double(total)
            return "<span class=\"\(status.rawValue)\" style=\"width:\(String(format: "%.2f", width))%\"></span>"
        }.joined()
        return """
            <div class="bar">\(segments)</div>
            <p class="counts">Stories: \(TextReporter.counts(summary.stories, order: StoryStatus.allCases))
            &middot; Steps: \(TextReporter.counts(summary.steps, order: StepStatus.allCases))</p>
            """
    }

    private func story(_ result: StoryResult) -> String {
        let story = result.story
        let tags = story.tags.map { "<span class=\"tag\">\($0.htmlEscaped)</span>" }.joined(separator: " ")
        var html = """
            <details class="story \(result.status.rawValue)" data-status="\(result.status.rawValue)"\(result.status == .passed ? "" : " open")>
            <summary><span class="status">\(result.status.rawValue)</span> \(story.name.htmlEscaped) \(tags)
            <span class="where">\(story.location.displayFileAndLine.htmlEscaped) &middot; \(Self.duration(result.duration))</span></summary>
            <ol class="steps">

            """
        for step in result.steps {
            html += "<li class=\"step \(step.status.rawValue)\"><span class=\"keyword\">\(step.step.keyword.htmlEscaped)</span> \(step.step.text.htmlEscaped)"
            html += " <span class=\"where\">line \(step.step.location.line) &middot; \(Self.duration(step.duration))</span>"
            if let match = step.match {
                html += "<div class=\"match\">matched <code>\(match.pattern.htmlEscaped)</code> at \(match.location.displayFileAndLine.htmlEscaped)</div>"
            }
            if let error = step.error {
                let place = error.location.map { "\n\($0.displayFileAndLine)" } ?? ""
                html += "<pre class=\"error\">\((error.message + place).htmlEscaped)\n\(step.step.location.displayFileAndLine.htmlEscaped)</pre>"
            }
            if step.status == .undefined {
                html += "<pre class=\"snippet\">\(Snippet(for: step.step).code().htmlEscaped)</pre>"
            }
            html += "</li>\n"
        }
        return html + "</ol></details>\n"
    }

    static func duration(_ nanoseconds: UInt64) -> String {
        let milliseconds = Double(nanoseconds) / 1_000_000
        return milliseconds < 1000 ? String(format: "%.0f ms", milliseconds) : String(format: "%.2f s", milliseconds / 1000)
    }
}
