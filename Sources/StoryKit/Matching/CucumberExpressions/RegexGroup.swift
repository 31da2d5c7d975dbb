/// A capture group of a match, with the capture groups nested inside it.
struct RegexGroup: Sendable {
    /// The matched text, or `nil` when the group took no part in the match.
    var value: String?
    /// Where the matched text starts in the text, in UTF-16 code units
    /// (as Cucumber Messages count), or `nil` when the group took no part.
    var start: Int? = nil
    /// The capture groups directly inside this one; non-capturing groups
    /// are looked through.
    var children: [RegexGroup]

    /// The texts handed to a parameter type's conversion: the children's,
    /// or this group's own when it has no children.
    var values: [String?] {
        children.isEmpty ? [value] : children.map(\.value)
    }
}
