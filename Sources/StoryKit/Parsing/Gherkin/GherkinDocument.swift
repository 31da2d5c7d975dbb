/// A place in a feature file, as the official parser reports it.
struct GherkinLocation: Hashable, Sendable {
    /// The line, counted from 1.
    var line: Int
    /// The column, counted from 1 (in Unicode scalars).
    var column: Int
}

/// The syntax tree of a feature file: its feature, if any, and its comments.
struct GherkinDocument: Sendable {
    /// A `# …` line.
    struct Comment: Hashable, Sendable {
        /// Where the comment is (its column is always 1).
        var location: GherkinLocation
        /// The whole line, indentation included.
        var text: String
    }

    /// The feature; `nil` for a file with no `Feature:` line.
    var feature: GherkinFeature?
    /// Every comment line, in file order.
    var comments: [Comment]
    /// Lines read as description text that look like a mistyped keyword
    /// (`Scenaro:`): warnings, not errors, as the official parser reads
    /// them as text.
    var keywordTypos: [GherkinKeywordTypos.Typo] = []
}

/// A tag (`@wip`) on a feature, rule, scenario or examples.
struct GherkinTag: Hashable, Sendable {
    /// The tag's id.
    var id: Int
    /// Where the tag is.
    var location: GherkinLocation
    /// The tag with its `@`.
    var name: String
}
