/// A line of a feature file, classified by the matcher.
struct GherkinToken {
    /// What a line can be, as the Gherkin grammar names it.
    enum Kind: String, Sendable {
        case eof = "EOF"
        case empty = "Empty"
        case comment = "Comment"
        case tagLine = "TagLine"
        case featureLine = "FeatureLine"
        case ruleLine = "RuleLine"
        case backgroundLine = "BackgroundLine"
        case scenarioLine = "ScenarioLine"
        case examplesLine = "ExamplesLine"
        case stepLine = "StepLine"
        case docStringSeparator = "DocStringSeparator"
        case tableRow = "TableRow"
        case language = "Language"
        case other = "Other"

        /// The name used in "expected: …" messages (`#StepLine`).
        var expectedName: String { "#" + rawValue }
    }

    /// What the line is.
    let kind: Kind
    /// The line number, counted from 1.
    let line: Int
    /// The column where the token's text starts, counted from 1.
    let column: Int
    /// The keyword as written (`Given `, `Scenario`), or the doc string fence.
    var keyword: String = ""
    /// The step keyword's type, for step lines.
    var keywordType: GherkinStep.KeywordType = .unknown
    /// The text after the keyword: a name, step text, media type, comment or line.
    var text: String = ""
    /// The tags of a tag line.
    var items: [GherkinLine.Item] = []
    /// The cells of a table row.
    var cells: [String] = []

    /// The token's place in the file.
    var location: GherkinLocation { GherkinLocation(line: line, column: column) }
}
