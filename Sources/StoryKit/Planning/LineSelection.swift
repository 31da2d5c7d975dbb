/// What `PATH:LINE` selects in one file, as Cucumber reads it: a story's
/// own lines (its title, tags and steps) select it; a Scenario Outline's
/// lines select all of its examples, an `Examples:` line (or its header
/// row) that table's rows, an example row that example; a `Rule:` line the
/// scenarios under it, a `Feature:` line the whole file, a `Background:`
/// or background step line every story it runs before.
struct LineSelection {
    /// The file's lines, for the blocks whose last line the syntax tree
    /// does not hold (a data table with comments between its rows).
    private var lines: [Substring] = []
    /// For each story, by the line of its location, the lines that select it.
    private(set) var selectors: [Int: [ClosedRange<Int>]] = [:]
    /// The lines stories start on (titles, outline titles, example rows):
    /// what a line that selects nothing is told it is near.
    private(set) var storyLines: [Int] = []

    /// The selection map of a file's text (parsed again: only files named
    /// with a line pay for it).
    init(text: String, path: String, stories: [Story]) {
        if FeatureFile.isFeature(path) {
            readFeature(text, markdown: FeatureFile.isMarkdown(path))
        } else {
            readStories(text, stories: stories)
        }
        storyLines.sort()
    }

    /// The stories of the file at `path` that any of the lines selects, and
    /// a diagnostic for each line that selects none.
    static func select(_ lines: Set<Int>, in path: String, stories: [Story]) -> (stories: [Story], diagnostics: [Diagnostic]) {
        guard case .success(let text) = StoryLoader.readText(at: path) else { return (stories, []) }
        return LineSelection(text: text, path: path, stories: stories).select(stories, lines: lines, path: path)
    }

    /// The stories any of the lines selects, and a diagnostic for each line
    /// that selects none.
    func select(_ stories: [Story], lines: Set<Int>, path: String) -> (stories: [Story], diagnostics: [Diagnostic]) {
        var used: Set<Int> = []
        let kept = stories.filter { story in
            let ranges = selectors[story.location.line] ?? [story.location.line...story.location.line]
            let hits = lines.filter { line in ranges.contains { $0.contains(line) } }
            used.formUnion(hits)
            return !hits.isEmpty
        }
        let diagnostics = lines.subtracting(used).sorted().map { nothingAt($0, path: path) }
        return (kept, diagnostics)
    }

    /// `PATH:LINE` that selects no story: names the story lines nearest it.
    private func nothingAt(_ line: Int, path: String) -> Diagnostic {
        let before = storyLines.last { $0 < line }
        let after = storyLines.first { $0 > line }
        let near = [before, after].compactMap { $0 }
        let help =
            if let first = near.first {
                "the nearest story line\(near.count == 1 ? " is" : "s are") \(near.map(String.init).joined(separator: " and ")): write \(path):\(first)"
            } else {
                "the file has no story to run"
            }
        let what = line < 1 ? "there is no line \(line): lines are counted from 1" : "line \(line) selects no story"
        return Diagnostic(at: SourceLocation(file: path, line: min(max(line, 1), 1 << 30)), problem: what, help: help)
    }

    // MARK: .stories

    /// A story's title, its tag lines and its steps select it. Its tag
    /// lines are those above it with only blank lines and comments between
    /// them, as the parser reads them.
    private mutating func readStories(_ text: String, stories: [Story]) {
        let lines = Self.lines(of: text)
        for story in stories {
            var first = story.location.line
            var above = first - 1
            while above >= 1, above - 1 < lines.count {
                let line = StoryLine(lines[above - 1])
                if line.isTagLine {
                    first = above
                } else if !line.isBlank && !line.isComment {
                    break
                }
                above -= 1
            }
            let last = max(story.location.line, story.steps.last?.location.line ?? story.location.line)
            selectors[story.location.line] = [first...last]
            storyLines.append(story.location.line)
        }
    }

    // MARK: .feature

    private mutating func readFeature(_ text: String, markdown: Bool) {
        let (document, errors, _) = GherkinParser.parse(text, markdown: markdown)
        guard let feature = document?.feature, errors.isEmpty else { return }
        lines = Self.lines(of: text)
        let featureLines = Self.tagged(feature.tags, feature.location.line...feature.location.line)
        var background: [ClosedRange<Int>] = []
        for child in feature.children {
            switch child {
            case .background(let value): background.append(range(of: value))
            case .scenario(let scenario): add(scenario, above: featureLines + background)
            case .rule(let rule):
                var ruleLines = featureLines + background + Self.tagged(rule.tags, rule.location.line...rule.location.line)
                for ruleChild in rule.children {
                    switch ruleChild {
                    case .background(let value): ruleLines.append(range(of: value))
                    case .scenario(let scenario): add(scenario, above: ruleLines)
                    case .rule: break
                    }
                }
            }
        }
    }

    /// A scenario's stories: itself, or one per example row.
    private mutating func add(_ scenario: GherkinScenario, above: [ClosedRange<Int>]) {
        let own = above + Self.tagged(scenario.tags, scenario.location.line...lastLine(scenario.location.line, scenario.steps))
        storyLines.append(scenario.location.line)
        guard !scenario.examples.isEmpty else {
            selectors[scenario.location.line] = own
            return
        }
        for examples in scenario.examples {
            guard let header = examples.tableHeader else { continue }
            let table = own + Self.tagged(examples.tags, examples.location.line...header.location.line)
            for row in examples.tableBody {
                selectors[row.location.line] = table + [row.location.line...row.location.line]
                storyLines.append(row.location.line)
            }
        }
    }

    private func range(of background: GherkinBackground) -> ClosedRange<Int> {
        background.location.line...lastLine(background.location.line, background.steps)
    }

    /// The line of a data table's last row: comments and blank lines may
    /// come between its rows.
    private func lastRow(of table: GherkinStep.DataTable) -> Int {
        var line = table.location.line
        var rows = 1
        var next = line + 1
        while rows < table.rows.count, next - 1 < lines.count {
            let text = lines[next - 1].drop(while: \.isWhitespace)
            if text.hasPrefix("|") {
                rows += 1
                line = next
            } else if !text.isEmpty && !text.hasPrefix("#") {
                break
            }
            next += 1
        }
        return line
    }

    /// A file's lines, split at `\n`, `\r\n` and `\r`.
    private static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    }

    /// A block's lines with the lines of its tags.
    private static func tagged(_ tags: [GherkinTag], _ lines: ClosedRange<Int>) -> [ClosedRange<Int>] {
        Set(tags.map(\.location.line)).sorted().map { $0...$0 } + [lines]
    }

    /// The last line of a block that starts on `first` and holds the steps,
    /// their doc strings and data tables included.
    private func lastLine(_ first: Int, _ steps: [GherkinStep]) -> Int {
        guard let step = steps.last else { return first }
        if let table = step.dataTable { return lastRow(of: table) }
        if let doc = step.docString {
            let contentLines = doc.content.isEmpty ? 0 : doc.content.split(separator: "\n", omittingEmptySubsequences: false).count
            return doc.location.line + contentLines + 1
        }
        return step.location.line
    }
}
