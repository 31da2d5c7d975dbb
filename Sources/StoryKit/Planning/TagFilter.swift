/// Turns a tag expression into a predicate on a story's tags.
enum TagFilter {
    /// The predicate for an expression such as `@smoke and not @wip`.
    /// - Throws: When the expression is not valid.
    static func predicate(_ expression: String) throws -> @Sendable ([String]) -> Bool {
        throw TagFilterUnavailable()
    }
}

struct TagFilterUnavailable: Error, CustomStringConvertible {
    var description: String { "tag expressions are not supported yet" }
}
