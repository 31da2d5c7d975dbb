/// A step line, with the data table and doc string written under it.
struct GherkinStep: Sendable {
    /// What a step keyword means, from the list it is in in the dialect.
    enum KeywordType: String, Sendable {
        case context = "Context"
        case action = "Action"
        case outcome = "Outcome"
        case conjunction = "Conjunction"
        /// `*`, or a keyword listed under more than one type.
        case unknown = "Unknown"
    }

    /// A `|`-table under a step.
    struct DataTable: Sendable {
        /// Where the first row is.
        var location: GherkinLocation
        /// The cells, row by row: shared as they are by the compiled
        /// ``StoryKit/DataTable`` when there is nothing to fill in.
        var rows: [[String]]
    }

    /// A fenced block of text under a step.
    struct DocString: Sendable {
        /// Where the opening fence is.
        var location: GherkinLocation
        /// The lines between the fences, the fence's indentation removed.
        var content: String
        /// The fence: `"""` or three backticks.
        var delimiter: String
        /// The text after the opening fence, if any.
        var mediaType: String?
    }

    /// The step's id.
    var id: Int
    /// Where the step line is.
    var location: GherkinLocation
    /// The keyword as written, trailing blank included (`Given `).
    var keyword: String
    /// The keyword's type.
    var keywordType: KeywordType
    /// The text after the keyword.
    var text: String
    /// The data table, if any.
    var dataTable: DataTable?
    /// The doc string, if any.
    var docString: DocString?
}
