/// A `Scenario:` or `Scenario Outline:`, with its examples if it has any.
struct GherkinScenario: Sendable {
    /// The scenario's id.
    var id: Int
    /// The scenario's own tags.
    var tags: [GherkinTag]
    /// Where the scenario line is.
    var location: GherkinLocation
    /// The keyword as written (`Scenario`, `Scenario Outline`, `Example`).
    var keyword: String
    /// The name after the keyword; may hold `<placeholders>`.
    var name: String
    /// The free text under the scenario line.
    var description: String
    /// The steps.
    var steps: [GherkinStep]
    /// The `Examples:` blocks; a scenario with any is compiled as an outline.
    var examples: [GherkinExamples]
}

/// An `Examples:` block: a table whose header names an outline's placeholders.
struct GherkinExamples: Sendable {
    /// The block's id.
    var id: Int
    /// The block's tags.
    var tags: [GherkinTag]
    /// Where the `Examples:` line is.
    var location: GherkinLocation
    /// The keyword as written.
    var keyword: String
    /// The name after the keyword.
    var name: String
    /// The free text under the examples line.
    var description: String
    /// The first row: the placeholder names; `nil` when there is no table.
    var tableHeader: GherkinTableRow?
    /// The rows after the header: one compiled story each.
    var tableBody: [GherkinTableRow]
}

/// A row of a data table or examples table.
struct GherkinTableRow: Sendable {
    /// The row's id.
    var id: Int
    /// Where the row's first `|` is.
    var location: GherkinLocation
    /// The cells' texts, escapes resolved, blanks around each removed.
    ///
    /// Cells keep no columns: no output names them, and plain strings let
    /// a compiled ``DataTable`` share the row instead of copying it.
    var cells: [String]
}
