/// Builds the syntax tree while the parser walks the grammar: the parser
/// opens and closes rules, and each rule becomes a node when it closes.
///
/// Ids are handed out as nodes close — rows, steps, tags, then their
/// scenario — so they come out as the official parser's do.
struct GherkinASTBuilder {
    /// A rule of the grammar that becomes (part of) a node.
    enum Rule: Sendable {
        case document, feature, featureHeader, rule, ruleHeader, background
        case scenarioDefinition, scenario, examplesDefinition, examples, examplesTable
        case step, dataTable, docString, tags, description
    }

    /// What a node keeps of its keyword line (or a doc string of its
    /// opening fence): not the whole token, so frames stay small.
    private struct KeywordLine {
        let location: GherkinLocation
        /// The keyword as written, or the fence.
        let keyword: String
        let keywordType: GherkinStep.KeywordType
        /// The name, step text or media type.
        let text: String
    }

    /// A tag line: its number and its tags.
    private struct TagLine {
        let line: Int
        let items: [GherkinLine.Item]
    }

    /// What an open block (feature, rule, background, scenario or examples)
    /// has gathered so far: its header rule and its definition rule share it.
    private struct Block {
        var keywordLine: KeywordLine?
        var tagLines: [TagLine] = []
        var description = ""
    }

    /// The open rules, innermost last. Each rule is open at most once at a
    /// time, so what it gathers is kept in a field of its own below rather
    /// than in a frame that is made and taken apart line by line.
    private var stack: [Rule] = [.document]
    /// The feature, rule, background, scenario and examples being built, by
    /// ``blockIndex(_:)``.
    private var blocks = [Block](repeating: Block(), count: 5)
    /// The children of the open feature, and of the open rule.
    private var featureChildren: [GherkinFeature.Child] = []
    private var ruleChildren: [GherkinFeature.Child] = []
    /// The steps of the open background, and of the open scenario.
    private var backgroundSteps: [GherkinStep] = []
    private var scenarioSteps: [GherkinStep] = []
    /// The examples of the open scenario.
    private var scenarioExamples: [GherkinExamples] = []
    /// The rows of the open examples table, then of its examples block.
    private var examplesRows: [GherkinTableRow] = []
    /// The open step's line.
    private var stepLine: KeywordLine?
    /// The open doc string's fence, its text so far and its line count.
    private var docStringFence: KeywordLine?
    private var docStringText = ""
    private var docStringLineCount = 0
    /// The tag lines of the open tags rule.
    private var tagLines: [TagLine] = []
    /// Every line of text read as a description, for
    /// ``GherkinKeywordTypos`` (a mistyped keyword is one).
    private(set) var descriptionLines: [GherkinKeywordTypos.DescriptionLine] = []
    /// The open description's text, line count and blank lines not yet
    /// followed by text.
    private var descriptionText = ""
    private var descriptionLineCount = 0
    private var pendingBlankLines: [String] = []
    /// The rows of the open data table (tables don't nest, so one is enough):
    /// kept as plain cells, which the table and then its stories share.
    private var dataTableRows: [[String]] = []
    /// Where the open data table's first row is.
    private var dataTableLocation = GherkinLocation(line: 0, column: 0)
    /// The open data table's first row with a cell count unlike the first's.
    private var inconsistentRow: GherkinLocation?
    /// The data table of the open step, once it has closed.
    private var stepDataTable: GherkinStep.DataTable?
    /// The doc string of the open step, once it has closed.
    private var stepDocString: GherkinStep.DocString?
    /// The feature, once its rule has closed.
    private var feature: GherkinFeature?
    /// The dialect's code when the `Feature:` line was read.
    var language = "en"
    /// The comments seen so far.
    private(set) var comments: [GherkinDocument.Comment] = []
    /// The next id to hand out; the pickle compiler goes on from it.
    private(set) var nextID = 0
    /// The errors found so far, without duplicates, in the order found.
    private(set) var errors: [GherkinError] = []
    /// Whether so many errors were found that parsing stops (more than 10).
    private(set) var isStopped = false
    private var errorMessages: Set<String> = []

    /// Records an error unless the same one was already recorded.
    mutating func record(_ error: GherkinError) {
        guard !isStopped, errorMessages.insert(error.fullMessage).inserted else { return }
        errors.append(error)
        if errors.count > 10 { isStopped = true }
    }

    /// Records a comment line.
    mutating func addComment(_ token: consuming GherkinToken) {
        comments.append(.init(location: token.location, text: token.text))
    }

    /// The index in ``blocks`` of what `rule` gathers into, or `nil` for a
    /// rule that is not part of a block's header or definition.
    private static func blockIndex(_ rule: Rule) -> Int? {
        switch rule {
        case .feature, .featureHeader: 0
        case .rule, .ruleHeader: 1
        case .background: 2
        case .scenarioDefinition, .scenario: 3
        case .examplesDefinition, .examples: 4
        default: nil
        }
    }

    /// Opens a rule inside the current one, with nothing gathered for it yet.
    mutating func open(_ rule: Rule) {
        switch rule {
        case .feature:
            blocks[0] = Block()
            featureChildren = []
        case .rule:
            blocks[1] = Block()
            ruleChildren = []
        case .background:
            blocks[2] = Block()
            backgroundSteps = []
        case .scenarioDefinition:
            blocks[3] = Block()
            scenarioSteps = []
            scenarioExamples = []
        case .examplesDefinition:
            blocks[4] = Block()
            examplesRows = []
        case .examplesTable:
            examplesRows = []
        case .step:
            stepLine = nil
            stepDataTable = nil
            stepDocString = nil
        case .docString:
            docStringFence = nil
            docStringText = ""
            docStringLineCount = 0
        case .tags:
            tagLines = []
        case .description:
            descriptionText = ""
            descriptionLineCount = 0
            pendingBlankLines = []
        case .document, .featureHeader, .ruleHeader, .scenario, .examples, .dataTable:
            // A header shares its definition's block, opened just before it.
            break
        }
        stack.append(rule)
    }

    /// Sets the keyword line (or opening fence) of the current rule.
    mutating func setKeywordLine(_ token: consuming GherkinToken) {
        let line = KeywordLine(
            location: token.location, keyword: token.keyword, keywordType: token.keywordType, text: token.text)
        let top = stack[stack.count - 1]
        switch top {
        case .step: stepLine = line
        case .docString: docStringFence = line
        default:
            if let index = Self.blockIndex(top) { blocks[index].keywordLine = line }
        }
    }

    /// Adds a line (row, tag line, description or doc string line) to the current rule.
    mutating func add(_ token: consuming GherkinToken) {
        switch stack[stack.count - 1] {
        case .docString:
            if docStringLineCount > 0 { docStringText += "\n" }
            docStringText += token.text
            docStringLineCount += 1
        case .description:
            // Blank lines (blanks only, kept as written) count only once a
            // later line follows them, as the official builder trims them.
            if token.text.allSatisfy(\.isWhitespace) {
                pendingBlankLines.append(token.text)
                return
            }
            if let index = Self.blockIndex(stack[stack.count - 2]), let block = blocks[index].keywordLine {
                descriptionLines.append(.init(line: token.line, text: token.text, blockLine: block.location.line, inSteps: index == 2 || index == 3))
            }
            for line in pendingBlankLines + [token.text] {
                if descriptionLineCount > 0 { descriptionText += "\n" }
                descriptionText += line
                descriptionLineCount += 1
            }
            pendingBlankLines = []
        case .dataTable:
            // No other id is handed out while a table is open, so ids given
            // now are the ones the official parser gives when it closes.
            // A data table's rows need ids only to keep the numbering.
            _ = makeID()
            if dataTableRows.isEmpty {
                dataTableLocation = token.location
                // Room for a few rows at once: one allocation for most tables.
                dataTableRows.reserveCapacity(4)
            } else if inconsistentRow == nil && token.cells.count != dataTableRows[0].count {
                inconsistentRow = token.location
            }
            dataTableRows.append(token.cells)
        case .examplesTable:
            if examplesRows.isEmpty { examplesRows.reserveCapacity(4) }
            examplesRows.append(GherkinTableRow(id: makeID(), location: token.location, cells: token.cells))
        default:
            tagLines.append(TagLine(line: token.line, items: token.items))
        }
    }

    /// Closes rules until the current one is one of `rules` (or the document).
    mutating func close(until rule: Rule, or other: Rule? = nil) {
        while let top = stack.last, top != .document, top != rule, top != other { close() }
    }

    /// Closes every open rule and returns the document.
    mutating func finish() -> GherkinDocument {
        close(until: .document)
        return GherkinDocument(feature: feature, comments: comments)
    }

    private mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func makeTags(_ lines: [TagLine]) -> [GherkinTag] {
        var tags: [GherkinTag] = []
        for line in lines {
            for item in line.items {
                tags.append(GherkinTag(
                    id: makeID(), location: GherkinLocation(line: line.line, column: item.column), name: item.text))
            }
        }
        return tags
    }

    /// Makes table rows (with ids), or records an error when rows differ in length.
    private mutating func checkRows(_ rows: [GherkinTableRow]) -> [GherkinTableRow]? {
        if let first = rows.first, let bad = rows.first(where: { $0.cells.count != first.cells.count }) {
            recordInconsistentCellCount(at: bad.location)
            return nil
        }
        return rows
    }

    /// Records that the table row at `location` has more or fewer cells than the first.
    private mutating func recordInconsistentCellCount(at location: GherkinLocation) {
        record(GherkinError(
            line: location.line, column: location.column,
            message: "inconsistent cell count within the table", reason: .inconsistentCellCount))
    }

    /// Adds a background, scenario or rule to the feature or rule it is in.
    private mutating func addChild(_ child: GherkinFeature.Child) {
        if stack.last == .rule { ruleChildren.append(child) } else { featureChildren.append(child) }
    }

    /// Closes the current rule and hands what it built to its parent.
    private mutating func close() {
        let rule = stack.removeLast()
        switch rule {
        case .document:
            stack.append(rule)
        case .tags:
            if let index = stack.last.flatMap(Self.blockIndex) { blocks[index].tagLines = tagLines }
            tagLines = []
        case .description:
            if let index = stack.last.flatMap(Self.blockIndex) { blocks[index].description = descriptionText }
            descriptionText = ""
            pendingBlankLines = []
        case .dataTable:
            closeDataTable()
        case .docString:
            closeDocString()
        case .step:
            closeStep()
        case .background:
            closeBackground()
        case .examplesTable:
            examplesRows = checkRows(examplesRows) ?? []
        case .examples, .scenario, .featureHeader, .ruleHeader:
            // The header shares its definition's block: nothing to hand on.
            break
        case .examplesDefinition:
            closeExamplesDefinition()
        case .scenarioDefinition:
            closeScenarioDefinition()
        case .rule:
            closeRule()
        case .feature:
            closeFeature()
        }
    }

    /// Hands the rows read to the step, or records that their lengths differ.
    private mutating func closeDataTable() {
        if let bad = inconsistentRow {
            recordInconsistentCellCount(at: bad)
        } else if !dataTableRows.isEmpty {
            stepDataTable = GherkinStep.DataTable(location: dataTableLocation, rows: dataTableRows)
        }
        dataTableRows = []
        inconsistentRow = nil
    }

    /// Hands the doc string read to the step.
    private mutating func closeDocString() {
        guard let fence = docStringFence else { return }
        stepDocString = GherkinStep.DocString(
            location: fence.location, content: docStringText,
            delimiter: fence.keyword, mediaType: fence.text.isEmpty ? nil : fence.text)
        docStringText = ""
    }

    /// Makes the step and hands it to its background or scenario.
    private mutating func closeStep() {
        guard let line = stepLine else { return }
        let step = GherkinStep(
            id: makeID(), location: line.location, keyword: line.keyword, keywordType: line.keywordType,
            text: line.text, dataTable: stepDataTable, docString: stepDocString)
        // Room for several steps at once: one allocation for most scenarios.
        if stack.last == .background {
            if backgroundSteps.isEmpty { backgroundSteps.reserveCapacity(8) }
            backgroundSteps.append(step)
        } else {
            if scenarioSteps.isEmpty { scenarioSteps.reserveCapacity(8) }
            scenarioSteps.append(step)
        }
        stepLine = nil
        stepDataTable = nil
        stepDocString = nil
    }

    /// Makes the background and hands it to its feature or rule.
    private mutating func closeBackground() {
        guard let line = blocks[2].keywordLine else { return }
        let steps = backgroundSteps
        backgroundSteps = []
        addChild(.background(GherkinBackground(
            id: makeID(), location: line.location, keyword: line.keyword, name: line.text,
            description: blocks[2].description, steps: steps)))
    }

    /// Makes the examples and hands them to their scenario.
    private mutating func closeExamplesDefinition() {
        guard let line = blocks[4].keywordLine else { return }
        let tags = makeTags(blocks[4].tagLines)
        let rows = examplesRows
        examplesRows = []
        scenarioExamples.append(GherkinExamples(
            id: makeID(), tags: tags, location: line.location, keyword: line.keyword, name: line.text,
            description: blocks[4].description, tableHeader: rows.first, tableBody: Array(rows.dropFirst())))
    }

    /// Makes the scenario and hands it to its feature or rule.
    private mutating func closeScenarioDefinition() {
        guard let line = blocks[3].keywordLine else { return }
        let tags = makeTags(blocks[3].tagLines)
        let steps = scenarioSteps
        let examples = scenarioExamples
        scenarioSteps = []
        scenarioExamples = []
        addChild(.scenario(GherkinScenario(
            id: makeID(), tags: tags, location: line.location, keyword: line.keyword, name: line.text,
            description: blocks[3].description, steps: steps, examples: examples)))
    }

    /// Makes the rule and hands it to the feature.
    private mutating func closeRule() {
        guard let line = blocks[1].keywordLine else { return }
        let tags = makeTags(blocks[1].tagLines)
        let children = ruleChildren
        ruleChildren = []
        featureChildren.append(.rule(GherkinRule(
            id: makeID(), tags: tags, location: line.location, keyword: line.keyword, name: line.text,
            description: blocks[1].description, children: children)))
    }

    /// Makes the feature, the tree's root.
    private mutating func closeFeature() {
        guard let line = blocks[0].keywordLine else { return }
        let children = featureChildren
        featureChildren = []
        feature = GherkinFeature(
            tags: makeTags(blocks[0].tagLines), location: line.location, language: language,
            keyword: line.keyword, name: line.text, description: blocks[0].description, children: children)
    }
}
