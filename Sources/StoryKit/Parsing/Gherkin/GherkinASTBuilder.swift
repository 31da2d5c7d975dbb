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

    /// An open rule and what has been gathered for it so far.
    private struct Frame {
        let rule: Rule
        var keywordLine: KeywordLine?
        var tagLines: [TagLine] = []
        var text = ""
        var lineCount = 0
        var pendingBlankLines: [String] = []
        /// An examples table's rows; an examples block's, once its table closed.
        var rows: [GherkinTableRow] = []
        var steps: [GherkinStep] = []
        var children: [GherkinFeature.Child] = []
        var examples: [GherkinExamples] = []
    }

    private var stack: [Frame] = [Frame(rule: .document)]
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

    /// Opens a rule inside the current one.
    mutating func open(_ rule: Rule) {
        if rule == .step {
            stepDataTable = nil
            stepDocString = nil
        }
        stack.append(Frame(rule: rule))
    }

    /// Sets the keyword line (or opening fence) of the current rule.
    mutating func setKeywordLine(_ token: consuming GherkinToken) {
        stack[stack.count - 1].keywordLine = KeywordLine(
            location: token.location, keyword: token.keyword, keywordType: token.keywordType, text: token.text)
    }

    /// Adds a line (row, tag line, description or doc string line) to the current rule.
    mutating func add(_ token: consuming GherkinToken) {
        let top = stack.count - 1
        switch stack[top].rule {
        case .docString:
            if stack[top].lineCount > 0 { stack[top].text += "\n" }
            stack[top].text += token.text
            stack[top].lineCount += 1
        case .description:
            // Blank lines (blanks only, kept as written) count only once a
            // later line follows them, as the official builder trims them.
            if token.text.allSatisfy(\.isWhitespace) {
                stack[top].pendingBlankLines.append(token.text)
                return
            }
            for line in stack[top].pendingBlankLines + [token.text] {
                if stack[top].lineCount > 0 { stack[top].text += "\n" }
                stack[top].text += line
                stack[top].lineCount += 1
            }
            stack[top].pendingBlankLines = []
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
            if stack[top].rows.isEmpty { stack[top].rows.reserveCapacity(4) }
            stack[top].rows.append(GherkinTableRow(id: makeID(), location: token.location, cells: token.cells))
        default:
            stack[top].tagLines.append(TagLine(line: token.line, items: token.items))
        }
    }

    /// Closes rules until the current one is one of `rules` (or the document).
    mutating func close(until rule: Rule, or other: Rule? = nil) {
        while let top = stack.last?.rule, top != .document, top != rule, top != other { close() }
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

    /// Closes the current rule and hands what it built to its parent.
    private mutating func close() {
        let frame = stack.removeLast()
        let parent = stack.count - 1
        switch frame.rule {
        case .document:
            stack.append(frame)
        case .tags:
            stack[parent].tagLines = frame.tagLines
        case .description:
            stack[parent].text = frame.text
        case .dataTable:
            if let bad = inconsistentRow {
                recordInconsistentCellCount(at: bad)
            } else if !dataTableRows.isEmpty {
                stepDataTable = GherkinStep.DataTable(location: dataTableLocation, rows: dataTableRows)
            }
            dataTableRows = []
            inconsistentRow = nil
        case .docString:
            guard let fence = frame.keywordLine else { return }
            stepDocString = GherkinStep.DocString(
                location: fence.location, content: frame.text,
                delimiter: fence.keyword, mediaType: fence.text.isEmpty ? nil : fence.text)
        case .step:
            guard let line = frame.keywordLine else { return }
            // Room for a few steps at once: one allocation for most scenarios.
            if stack[parent].steps.isEmpty { stack[parent].steps.reserveCapacity(4) }
            stack[parent].steps.append(GherkinStep(
                id: makeID(), location: line.location, keyword: line.keyword, keywordType: line.keywordType,
                text: line.text, dataTable: stepDataTable, docString: stepDocString))
            stepDataTable = nil
            stepDocString = nil
        case .background:
            guard let line = frame.keywordLine else { return }
            stack[parent].children.append(.background(GherkinBackground(
                id: makeID(), location: line.location, keyword: line.keyword, name: line.text,
                description: frame.text, steps: frame.steps)))
        case .examplesTable:
            stack[parent].rows = checkRows(frame.rows) ?? []
        case .examples, .scenario, .featureHeader, .ruleHeader:
            stack[parent].keywordLine = frame.keywordLine
            stack[parent].text = frame.text
            stack[parent].rows = frame.rows
            stack[parent].steps = frame.steps
            stack[parent].examples = frame.examples
            if frame.rule == .featureHeader || frame.rule == .ruleHeader { stack[parent].tagLines = frame.tagLines }
        case .examplesDefinition:
            guard let line = frame.keywordLine else { return }
            let tags = makeTags(frame.tagLines)
            let rows = frame.rows
            stack[parent].examples.append(GherkinExamples(
                id: makeID(), tags: tags, location: line.location, keyword: line.keyword, name: line.text,
                description: frame.text, tableHeader: rows.first, tableBody: Array(rows.dropFirst())))
        case .scenarioDefinition:
            guard let line = frame.keywordLine else { return }
            let tags = makeTags(frame.tagLines)
            stack[parent].children.append(.scenario(GherkinScenario(
                id: makeID(), tags: tags, location: line.location, keyword: line.keyword, name: line.text,
                description: frame.text, steps: frame.steps, examples: frame.examples)))
        case .rule:
            guard let line = frame.keywordLine else { return }
            let tags = makeTags(frame.tagLines)
            stack[parent].children.append(.rule(GherkinRule(
                id: makeID(), tags: tags, location: line.location, keyword: line.keyword, name: line.text,
                description: frame.text, children: frame.children)))
        case .feature:
            guard let line = frame.keywordLine else { return }
            feature = GherkinFeature(
                tags: makeTags(frame.tagLines), location: line.location, language: language,
                keyword: line.keyword, name: line.text, description: frame.text, children: frame.children)
        }
    }
}
