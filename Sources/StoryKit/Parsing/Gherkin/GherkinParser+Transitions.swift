extension GherkinParser {
    /// Returns the token kinds a state accepts, in the order it tries them.
    static func candidates(_ state: State) -> [GherkinToken.Kind] {
        switch state {
        case .start:
            return [.eof, .language, .tagLine, .featureLine, .comment, .empty]
        case .afterLanguage, .featureTags:
            return [.tagLine, .featureLine, .comment, .empty]
        case .tags(let block):
            let line: GherkinToken.Kind = block == .rule ? .ruleLine : block == .scenario ? .scenarioLine : .examplesLine
            return [.tagLine, line, .comment, .empty]
        case .header(let block, let isInDescription):
            return (isInDescription ? [.eof, .comment] : [.eof, .empty, .comment])
                + (block == .examples ? [.tableRow] : []) + following(block) + [.other]
        case .step(_, .docString):
            return [.docStringSeparator, .other]
        case .step(let block, let phase):
            var kinds: [GherkinToken.Kind] = [.eof]
            switch phase {
            case .line, .table(afterDocString: false):
                kinds += [.tableRow, .docStringSeparator]
            case .table(afterDocString: true), .docStringEnd(afterTable: false):
                kinds += [.tableRow]
            case .docStringEnd(afterTable: true), .docString:
                break
            }
            return kinds + following(block) + [.comment, .empty]
        case .examplesTable:
            return [.eof, .tableRow] + following(.examples) + [.comment, .empty]
        case .finished:
            return []
        }
    }

    /// The candidates of every state, computed once, by ``State/tableIndex``.
    static let candidateTable: [[GherkinToken.Kind]] = {
        let blocks: [Block] = [.feature, .rule, .background, .scenario, .examples]
        var states: [State] = [.start, .afterLanguage, .featureTags, .examplesTable, .finished]
        for block in blocks {
            states += [.tags(block), .header(block, isInDescription: false), .header(block, isInDescription: true)]
            for flag in [false, true] {
                states += [.step(block, .line), .step(block, .table(afterDocString: flag))]
                states += [.step(block, .docString(afterTable: flag)), .step(block, .docStringEnd(afterTable: flag))]
            }
        }
        var table = [[GherkinToken.Kind]](repeating: [], count: State.tableSize)
        for state in states { table[state.tableIndex] = candidates(state) }
        return table
    }()

    /// The keyword lines that may come next in a block, in the order tried.
    private static func following(_ block: Block) -> [GherkinToken.Kind] {
        switch block {
        case .feature, .rule: [.backgroundLine, .tagLine, .scenarioLine, .ruleLine]
        case .background: [.stepLine, .tagLine, .scenarioLine, .ruleLine]
        case .scenario: [.stepLine, .tagLine, .examplesLine, .scenarioLine, .ruleLine]
        case .examples: [.tagLine, .examplesLine, .scenarioLine, .ruleLine]
        }
    }

    /// Moves to the next state for a matched token and builds the tree.
    mutating func apply(_ token: consuming GherkinToken) {
        switch token.kind {
        case .eof:
            builder.close(until: .document)
            enter(.finished)
        case .empty:
            break
        case .comment:
            // Markdown's table separators are comments to the grammar only,
            // as the official parser has them.
            if !matcher.isMarkdown { builder.addComment(token) }
            startDescriptionIfInHeader()
        case .other:
            startDescriptionIfInHeader()
            builder.add(token)
        case .language:
            builder.open(.feature)
            builder.open(.featureHeader)
            enter(.afterLanguage)
        case .featureLine:
            applyFeatureLine(token)
        case .tagLine:
            applyTagLine(token)
        case .ruleLine:
            applyRuleLine(token)
        case .backgroundLine:
            builder.close(until: .feature, or: .rule)
            builder.open(.background)
            builder.setKeywordLine(token)
            enter(.header(.background, isInDescription: false))
        case .scenarioLine:
            applyScenarioLine(token)
        case .examplesLine:
            applyExamplesLine(token)
        case .stepLine:
            applyStepLine(token)
        case .tableRow:
            applyTableRow(token)
        case .docStringSeparator:
            applyDocStringSeparator(token)
        }
    }

    /// A comment or free text right after a title line starts its description.
    private mutating func startDescriptionIfInHeader() {
        if case .header(let block, false) = state {
            builder.open(.description)
            enter(.header(block, isInDescription: true))
        }
    }

    /// Opens the feature (unless a language line or its tags already did)
    /// and reads its title line.
    private mutating func applyFeatureLine(_ token: consuming GherkinToken) {
        if state == .start {
            builder.open(.feature)
            builder.open(.featureHeader)
        } else if state == .featureTags {
            builder.close(until: .featureHeader)
        }
        builder.setKeywordLine(token)
        builder.language = matcher.dialect.code
        enter(.header(.feature, isInDescription: false))
    }

    /// Opens a rule (unless its tags already did) and reads its title line.
    private mutating func applyRuleLine(_ token: consuming GherkinToken) {
        if state == .tags(.rule) {
            builder.close(until: .ruleHeader)
        } else {
            builder.close(until: .feature)
            builder.open(.rule)
            builder.open(.ruleHeader)
        }
        builder.setKeywordLine(token)
        enter(.header(.rule, isInDescription: false))
    }

    /// Opens a scenario (unless its tags already did) and reads its title line.
    private mutating func applyScenarioLine(_ token: consuming GherkinToken) {
        if state == .tags(.scenario) {
            builder.close(until: .scenarioDefinition)
        } else {
            builder.close(until: .feature, or: .rule)
            builder.open(.scenarioDefinition)
        }
        builder.open(.scenario)
        builder.setKeywordLine(token)
        enter(.header(.scenario, isInDescription: false))
    }

    /// Opens an examples block (unless its tags already did) and reads its title line.
    private mutating func applyExamplesLine(_ token: consuming GherkinToken) {
        if state == .tags(.examples) {
            builder.close(until: .examplesDefinition)
        } else {
            builder.close(until: .scenario)
            builder.open(.examplesDefinition)
        }
        builder.open(.examples)
        builder.setKeywordLine(token)
        enter(.header(.examples, isInDescription: false))
    }

    /// Opens a step in the background or scenario the state is in.
    private mutating func applyStepLine(_ token: consuming GherkinToken) {
        let owner: Block
        if case .header(.background, _) = state { owner = .background }
        else if case .step(.background, _) = state { owner = .background }
        else { owner = .scenario }
        builder.close(until: owner == .background ? .background : .scenario)
        builder.open(.step)
        builder.setKeywordLine(token)
        enter(.step(owner, .line))
    }

    /// Opens a doc string, or closes the one open.
    private mutating func applyDocStringSeparator(_ token: consuming GherkinToken) {
        guard case .step(let owner, let phase) = state else { return }
        switch phase {
        case .docString(let afterTable):
            enter(.step(owner, .docStringEnd(afterTable: afterTable)))
        case .table:
            builder.close(until: .step)
            fallthrough
        default:
            builder.open(.docString)
            builder.setKeywordLine(token)
            enter(.step(owner, .docString(afterTable: phase != .line)))
        }
    }

    private mutating func applyTableRow(_ token: consuming GherkinToken) {
        switch state {
        case .step(let owner, .line):
            builder.open(.dataTable)
            enter(.step(owner, .table(afterDocString: false)))
        case .step(let owner, .docStringEnd):
            builder.close(until: .step)
            builder.open(.dataTable)
            enter(.step(owner, .table(afterDocString: true)))
        case .header(.examples, _):
            builder.close(until: .examples)
            builder.open(.examplesTable)
            enter(.examplesTable)
        default:
            break
        }
        builder.add(token)
    }

    /// Decides whose tags a tag line starts, looking ahead where the grammar does.
    private mutating func applyTagLine(_ token: consuming GherkinToken) {
        switch state {
        case .start:
            builder.open(.feature)
            builder.open(.featureHeader)
            builder.open(.tags)
            enter(.featureTags)
        case .afterLanguage:
            builder.open(.tags)
            enter(.featureTags)
        case .featureTags, .tags:
            break
        default:
            if isInScenario && lookahead(for: .examplesLine) {
                builder.close(until: .scenario)
                builder.open(.examplesDefinition)
                builder.open(.tags)
                enter(.tags(.examples))
            } else if lookahead(for: .scenarioLine) {
                builder.close(until: .feature, or: .rule)
                builder.open(.scenarioDefinition)
                builder.open(.tags)
                enter(.tags(.scenario))
            } else {
                builder.close(until: .feature)
                builder.open(.rule)
                builder.open(.ruleHeader)
                builder.open(.tags)
                enter(.tags(.rule))
            }
        }
        builder.add(token)
    }

    /// Whether the state is inside a scenario, where examples may start.
    private var isInScenario: Bool {
        switch state {
        case .header(.scenario, _), .header(.examples, _), .step(.scenario, _), .examplesTable: true
        default: false
        }
    }

    /// Whether the lines after the current one reach a title line of `kind`
    /// (`.scenarioLine` or `.examplesLine`) through blank lines, comments
    /// and tag lines only.
    private mutating func lookahead(for kind: GherkinToken.Kind) -> Bool {
        var start = nextStart
        var number = lineNumber + 1
        while true {
            guard let (line, next) = line(at: start, number: number) else { return false }
            if matcher.isTitle(kind, line) { return true }
            start = next
            number += 1
            if line.isEmpty || line.starts(with: UInt8(ascii: "#")) { continue }
            guard line.starts(with: UInt8(ascii: "@")) else { return false }
            do {
                _ = try line.tags()
            } catch {
                builder.record(error)
                return false
            }
        }
    }
}
