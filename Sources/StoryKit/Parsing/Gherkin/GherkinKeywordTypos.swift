/// Finds description lines that look like a mistyped keyword (`Scenaro:`,
/// `Scenario Outlin:`, `Givn`): the official parser reads them as text,
/// and so does storyrun, but a run says so, as a warning, with the line.
///
/// Conservative, so that prose is left alone:
/// - a block keyword (`Feature`, `Rule`, `Background`, `Scenario`,
///   `Examples`… in the file's language) only for a line whose text before
///   its first `:` is within 2 edits of one (1 for a keyword of 4 letters
///   or fewer), and is not its plural (`Rules:`);
/// - a step keyword only for the last line of a scenario's or
///   background's description that sits where steps are: the block's first
///   step is on the next line, in the same column, or the block has no
///   step; its first word within 2 edits of a step keyword of 5 letters or
///   more, or two neighbour letters swapped in a shorter one (`Thne`,
///   never `The`, `They` or `An`).
enum GherkinKeywordTypos {
    /// A line read as description text.
    struct DescriptionLine: Sendable {
        var line: Int
        /// The line as written, indentation included.
        var text: String
        /// The line of the keyword of the block whose description it is.
        var blockLine: Int
        /// Whether the block is a scenario or a background, whose steps
        /// come after the description.
        var inSteps: Bool
    }

    /// A line that looks like a mistyped keyword.
    struct Typo: Sendable, Hashable {
        var location: GherkinLocation
        /// What was written (`Scenaro:`, `Givn`).
        var written: String
        /// The keyword it is close to (`Scenario:`, `Given`).
        var keyword: String

        /// The warning a run shows.
        func diagnostic(path: String) -> Diagnostic {
            Diagnostic(
                .warning, at: SourceLocation(file: path, line: location.line, column: location.column),
                problem: "'\(written)' is read as description text; did you mean '\(keyword)'?",
                help: "Gherkin keywords are matched exactly, as Cucumber does: fix the spelling to make the line a \(keyword.hasSuffix(":") ? "block" : "step")")
        }
    }

    /// The typos among the description lines of a parsed file.
    static func find(in lines: [DescriptionLine], of document: GherkinDocument, dialect: GherkinDialect) -> [Typo] {
        let titles = (dialect.featureKeywords + dialect.ruleKeywords + dialect.backgroundKeywords
            + dialect.scenarioKeywords + dialect.examplesKeywords).map(\.keyword)
        let steps = dialect.stepKeywords.map(\.keyword).filter { $0.hasSuffix(" ") && $0 != "* " }.map { String($0.dropLast()) }
        let firstSteps = firstStepLocations(document)
        var typos: [Typo] = []
        for (index, line) in lines.enumerated() {
            let text = line.text.drop { $0 == " " || $0 == "\t" }
            let column = line.text.count - text.count + 1
            let location = GherkinLocation(line: line.line, column: column)
            if let colon = text.firstIndex(of: ":"), let keyword = closeTitle(String(text[..<colon]), titles) {
                typos.append(Typo(location: location, written: String(text[...colon]), keyword: keyword + ":"))
                continue
            }
            guard line.inSteps, index + 1 == lines.count || lines[index + 1].blockLine != line.blockLine else { continue }
            if let first = firstSteps[line.blockLine] ?? nil, first.line != line.line + 1 || first.column != column { continue }
            let word = String(text.prefix { $0 != " " && $0 != "\t" })
            if let keyword = closeStep(word, steps) { typos.append(Typo(location: location, written: word, keyword: keyword)) }
        }
        return typos
    }

    /// The title keyword `head` is a near miss of, if any.
    private static func closeTitle(_ head: String, _ keywords: [String]) -> String? {
        guard !head.isEmpty, head.count <= 40, !keywords.contains(head) else { return nil }
        var best: (keyword: String, distance: Int)?
        for keyword in keywords where head != keyword + "s" && head.lowercased() != keyword.lowercased() + "s" {
            let limit = keyword.count <= 4 ? 1 : 2
            guard abs(keyword.count - head.count) <= limit else { continue }
            let distance = editDistance(head, keyword)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (keyword, distance) }
        }
        return best?.keyword
    }

    /// The step keyword `word` is a near miss of, if any.
    private static func closeStep(_ word: String, _ keywords: [String]) -> String? {
        guard !word.isEmpty, !keywords.contains(word) else { return nil }
        var best: (keyword: String, distance: Int)?
        for keyword in keywords {
            // A short keyword's near misses are mostly words (They, Than,
            // An, Bus): only two letters swapped count (Thne, Adn).
            let isShort = keyword.count <= 4
            if isShort && (word.count != keyword.count || word.sorted() != keyword.sorted()) { continue }
            let limit = isShort ? 1 : 2
            guard abs(keyword.count - word.count) <= limit else { continue }
            let distance = editDistance(word, keyword)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (keyword, distance) }
        }
        return best?.keyword
    }

    /// Where the first step of each scenario and background is, by the
    /// line of its keyword; nil for one with no step.
    private static func firstStepLocations(_ document: GherkinDocument) -> [Int: GherkinLocation?] {
        var found: [Int: GherkinLocation?] = [:]
        func walk(_ children: [GherkinFeature.Child]) {
            for child in children {
                switch child {
                case .background(let background): found[background.location.line] = background.steps.first?.location
                case .scenario(let scenario): found[scenario.location.line] = scenario.steps.first?.location
                case .rule(let rule): walk(rule.children)
                }
            }
        }
        walk(document.feature?.children ?? [])
        return found
    }

    /// The optimal string alignment distance of two words: insertions,
    /// deletions, substitutions and swaps of two neighbours.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1) }
            }
        }
        return rows[a.count][b.count]
    }
}
