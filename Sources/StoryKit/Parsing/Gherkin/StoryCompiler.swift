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
    /// The steps of the last background compiled, which every scenario
    /// under the same feature or rule shares.
    private var background: CompiledBackground?

    /// Background steps compiled once, and the step type they end on.
    private struct CompiledBackground {
        /// The number of background steps and the id of the last: enough to
        /// tell backgrounds apart, since a list is the feature's steps
        /// followed by at most one rule's.
        var key: (count: Int, lastID: Int)
        var steps: [Step]
        var last: GherkinStep.KeywordType
    }

    private init(path: String, groupName: String) {
        self.path = path
        self.groupName = groupName
        idPrefix = path + ":"
    }

    /// The stories of a document whose file is at `path`.
    static func compile(_ document: GherkinDocument, path: String) -> [Story] {
        guard let feature = document.feature else { return [] }
        var compiler = StoryCompiler(path: path, groupName: feature.name)
        feature.forEachScenario { scenario, tags, background in
            compiler.compile(scenario, inheritedTags: tags, background: background)
        }
        return compiler.stories
    }

    private mutating func compile(_ scenario: GherkinScenario, inheritedTags: [GherkinTag], background: [GherkinStep]) {
        guard !scenario.examples.isEmpty else {
            let steps = steps(of: scenario, background: background, names: [], values: [])
            addStory(
                name: scenario.name, location: scenario.location,
                tags: Self.tagNames(inheritedTags, scenario.tags, []), steps: steps)
            return
        }
        for examples in scenario.examples {
            guard let header = examples.tableHeader else { continue }
            let names = header.cells
            let tags = Self.tagNames(inheritedTags, scenario.tags, examples.tags)
            for row in examples.tableBody {
                let steps = steps(of: scenario, background: background, names: names, values: row.cells)
                addStory(
                    name: PickleCompiler.interpolate(scenario.name, names, row.cells), location: row.location,
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

    /// A scenario's steps after the background's, placeholders filled in
    /// from `names` and `values`; none at all when the scenario has none.
    private mutating func steps(
        of scenario: GherkinScenario, background: [GherkinStep], names: [String], values: [String]
    ) -> [Step] {
        guard !scenario.steps.isEmpty else { return [] }
        let compiled = compiledBackground(background)
        var steps: [Step] = []
        steps.reserveCapacity(compiled.steps.count + scenario.steps.count)
        steps += compiled.steps
        var last = compiled.last
        for step in scenario.steps {
            steps.append(self.step(step, last: &last, names: names, values: values))
        }
        return steps
    }

    /// The background's steps, compiled once for all the scenarios that share it.
    private mutating func compiledBackground(_ steps: [GherkinStep]) -> CompiledBackground {
        let key = (count: steps.count, lastID: steps.last?.id ?? -1)
        if let background, background.key == key { return background }
        var last = GherkinStep.KeywordType.unknown
        var compiled: [Step] = []
        compiled.reserveCapacity(steps.count)
        for step in steps {
            compiled.append(self.step(step, last: &last, names: [], values: []))
        }
        let background = CompiledBackground(key: key, steps: compiled, last: last)
        self.background = background
        return background
    }

    /// Makes a step; `last` is the type of the step before, and becomes this one's.
    private mutating func step(
        _ step: GherkinStep, last: inout GherkinStep.KeywordType, names: [String], values: [String]
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
            text: PickleCompiler.interpolate(step.text, names, values), location: sourceLocation(step.location),
            attachment: attachment(of: step, names: names, values: values))
    }

    /// The step's doc string or data table; with both, the one written first.
    private func attachment(of step: GherkinStep, names: [String], values: [String]) -> StepAttachment? {
        if let docString = step.docString, step.dataTable.map({ docString.location.line < $0.location.line }) ?? true {
            return .docString(DocString(
                content: PickleCompiler.interpolate(docString.content, names, values),
                mediaType: docString.mediaType.map { PickleCompiler.interpolate($0, names, values) },
                delimiter: docString.delimiter, location: sourceLocation(docString.location)))
        }
        guard let table = step.dataTable else { return nil }
        // Without an examples row there is nothing to fill in: the story
        // shares the syntax tree's rows.
        let rows = names.isEmpty ? table.rows : table.rows.map { $0.map { PickleCompiler.interpolate($0, names, values) } }
        return .dataTable(DataTable(rows: rows, location: sourceLocation(table.location)))
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
