/// Compiles a ``GherkinDocument`` straight to runnable ``Story`` values, one
/// per pickle, as ``PickleCompiler`` would (backgrounds prepended, outlines
/// expanded row by row, tags inherited, `And` and `But` resolved), but
/// without the pickles' ids and copies of the syntax tree.
///
/// A story's location is its scenario's line, or for an outline its
/// examples row's; its id is that location's `path:line`.
struct StoryCompiler {
    private let path: String
    /// `path:`, the start of every story id.
    private let idPrefix: String
    /// The feature's name: the group of every story in reports.
    private let groupName: String
    private var stories: [Story] = []
    /// Step keywords as written, each with its form trimmed of blanks; a
    /// file uses a handful, so a list is quicker than hashing each one.
    private var keywords: [(written: String, trimmed: String)] = []
    /// The background compiled last, which every scenario under the same
    /// feature or rule shares: its steps, the step type they end on, and
    /// its key, the number of steps and the id of the last: enough to tell
    /// backgrounds apart, since a list is the feature's steps followed by
    /// at most one rule's.
    private var backgroundSteps: [Step] = []
    private var backgroundLast = GherkinStep.KeywordType.unknown
    private var backgroundKey: (count: Int, lastID: Int)?

    private init(path: String, groupName: String) {
        self.path = path
        self.groupName = groupName
        idPrefix = path + ":"
    }

    /// The stories of a document whose file is at `path`.
    static func compile(_ document: GherkinDocument, path: String) -> [Story] {
        guard let feature = document.feature else { return [] }
        var compiler = StoryCompiler(path: path, groupName: feature.name)
        compiler.stories.reserveCapacity(storyCount(feature.children))
        feature.forEachScenario { scenario, tags, background in
            compiler.compile(scenario, inheritedTags: tags, background: background)
        }
        return compiler.stories
    }

    /// The number of stories that `children` compile to: one a scenario,
    /// or one an examples row.
    private static func storyCount(_ children: [GherkinFeature.Child]) -> Int {
        var count = 0
        for child in children {
            switch child {
            case .background:
                break
            case .scenario(let scenario):
                if scenario.examples.isEmpty {
                    count += 1
                } else {
                    for examples in scenario.examples where examples.tableHeader != nil { count += examples.tableBody.count }
                }
            case .rule(let rule):
                count += storyCount(rule.children)
            }
        }
        return count
    }

    private mutating func compile(_ scenario: GherkinScenario, inheritedTags: [GherkinTag], background: [GherkinStep]) {
        guard !scenario.examples.isEmpty else {
            let steps = steps(of: scenario, background: background, placeholders: [], values: [])
            addStory(
                name: scenario.name, location: scenario.location,
                tags: Self.tagNames(inheritedTags, scenario.tags, []), steps: steps)
            return
        }
        for examples in scenario.examples {
            guard let header = examples.tableHeader else { continue }
            // Each `<name>` made once for all the rows.
            let placeholders = header.cells.map { "<" + $0 + ">" }
            let tags = Self.tagNames(inheritedTags, scenario.tags, examples.tags)
            for row in examples.tableBody {
                let steps = steps(of: scenario, background: background, placeholders: placeholders, values: row.cells)
                addStory(
                    name: Self.fill(scenario.name, placeholders, row.cells), location: row.location,
                    tags: tags, steps: steps)
            }
        }
    }

    private mutating func addStory(name: String, location: GherkinLocation, tags: [String], steps: [Step]) {
        stories.append(Story(
            id: idPrefix + String(location.line), name: name, tags: tags, location: sourceLocation(location),
            steps: steps, groupName: groupName))
    }

    /// The names of the tags that reach a story, inherited ones first.
    private static func tagNames(_ inherited: [GherkinTag], _ own: [GherkinTag], _ examples: [GherkinTag]) -> [String] {
        var names: [String] = []
        names.reserveCapacity(inherited.count + own.count + examples.count)
        for tag in inherited { names.append(tag.name) }
        for tag in own { names.append(tag.name) }
        for tag in examples { names.append(tag.name) }
        return names
    }

    /// A scenario's steps after the background's, `placeholders` (`<name>`)
    /// filled in from `values`; none at all when the scenario has none.
    private mutating func steps(
        of scenario: GherkinScenario, background: [GherkinStep], placeholders: [String], values: [String]
    ) -> [Step] {
        guard !scenario.steps.isEmpty else { return [] }
        compileBackground(background)
        var steps: [Step] = []
        steps.reserveCapacity(backgroundSteps.count + scenario.steps.count)
        if !backgroundSteps.isEmpty { steps += backgroundSteps }
        var last = backgroundLast
        // By index, so that no step of the syntax tree is copied.
        for index in scenario.steps.indices {
            steps.append(step(scenario.steps[index], last: &last, placeholders: placeholders, values: values))
        }
        return steps
    }

    /// Compiles the background's steps, once for all the scenarios that share it.
    private mutating func compileBackground(_ steps: [GherkinStep]) {
        let key = (count: steps.count, lastID: steps.isEmpty ? -1 : steps[steps.count - 1].id)
        if let backgroundKey, backgroundKey == key { return }
        var last = GherkinStep.KeywordType.unknown
        var compiled: [Step] = []
        compiled.reserveCapacity(steps.count)
        for index in steps.indices {
            compiled.append(step(steps[index], last: &last, placeholders: [], values: []))
        }
        backgroundSteps = compiled
        backgroundLast = last
        backgroundKey = key
    }

    /// Makes a step; `last` is the type of the step before, and becomes this one's.
    private mutating func step(
        _ step: GherkinStep, last: inout GherkinStep.KeywordType, placeholders: [String], values: [String]
    ) -> Step {
        last = step.keywordType.resolved(after: last)
        let kind: Step.Kind =
            switch last {
            case .context: .context
            case .action: .action
            case .outcome: .outcome
            case .conjunction, .unknown: .unknown
            }
        return Step(
            keyword: trimmedKeyword(step.keyword), kind: kind,
            text: Self.fill(step.text, placeholders, values), location: sourceLocation(step.location),
            attachment: attachment(of: step, placeholders: placeholders, values: values))
    }

    /// The step's doc string or data table; with both, the one written first.
    private func attachment(of step: GherkinStep, placeholders: [String], values: [String]) -> StepAttachment? {
        if let docString = step.docString, step.dataTable.map({ docString.location.line < $0.location.line }) ?? true {
            return .docString(DocString(
                content: Self.fill(docString.content, placeholders, values),
                mediaType: docString.mediaType.map { Self.fill($0, placeholders, values) },
                delimiter: docString.delimiter, location: sourceLocation(docString.location)))
        }
        guard let table = step.dataTable else { return nil }
        // Without an examples row there is nothing to fill in: the story
        // shares the syntax tree's rows.
        let rows = placeholders.isEmpty ? table.rows : table.rows.map { $0.map { Self.fill($0, placeholders, values) } }
        return .dataTable(DataTable(rows: rows, location: sourceLocation(table.location)))
    }

    /// Replaces each placeholder (`<name>`) with the row's value, one
    /// column after another, as ``PickleCompiler/interpolate(_:_:_:)`` does
    /// with the names.
    private static func fill(_ text: String, _ placeholders: [String], _ values: [String]) -> String {
        guard !placeholders.isEmpty, text.utf8.contains(UInt8(ascii: "<")) else { return text }
        var result = text
        for (placeholder, value) in zip(placeholders, values) {
            result = result.replacingAll(placeholder, with: value)
        }
        return result
    }

    private func sourceLocation(_ location: GherkinLocation) -> SourceLocation {
        SourceLocation(file: path, line: location.line, column: location.column)
    }

    /// The keyword without blanks around it (`Given` for `Given `).
    private mutating func trimmedKeyword(_ keyword: String) -> String {
        for known in keywords where known.written == keyword { return known.trimmed }
        var text = Substring(keyword)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        let trimmed = String(text)
        keywords.append((keyword, trimmed))
        return trimmed
    }
}
