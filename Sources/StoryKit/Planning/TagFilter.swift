/// Turns a tag expression into a predicate on a story's tags.
enum TagFilter {
    /// The predicate for an expression such as `@smoke and not @wip`.
    /// - Throws: ``TagExpressionError`` when the expression is not valid.
    static func predicate(_ expression: String) throws -> @Sendable ([String]) -> Bool {
        let parsed = try TagExpression(expression)
        return { tags in parsed.evaluate(tags) }
    }
}
