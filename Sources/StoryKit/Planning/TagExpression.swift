/// A boolean expression over tags, such as `@smoke and not (@wip or @slow)`,
/// parsed and evaluated exactly as Cucumber's tag-expressions library does.
public indirect enum TagExpression: Sendable, Hashable, CustomStringConvertible {
    /// The empty expression: true for every story.
    case always
    /// True when the tag is present.
    case tag(String)
    /// True when both are.
    case and(TagExpression, TagExpression)
    /// True when either is.
    case or(TagExpression, TagExpression)
    /// True when the expression is not.
    case not(TagExpression)

    /// Parses an expression.
    /// - Throws: ``TagExpressionError`` with the official message.
    public init(_ text: String) throws(TagExpressionError) {
        self = try TagExpressionParser(text).parse()
    }

    /// Whether a story with these tags matches.
    public func evaluate(_ tags: some Collection<String>) -> Bool {
        switch self {
        case .always: true
        case .tag(let name): tags.contains(name)
        case .and(let left, let right): left.evaluate(tags) && right.evaluate(tags)
        case .or(let left, let right): left.evaluate(tags) || right.evaluate(tags)
        case .not(let inner): !inner.evaluate(tags)
        }
    }

    /// Every tag the expression names, in order.
    public var names: [String] {
        switch self {
        case .always: []
        case .tag(let name): [name]
        case .and(let left, let right), .or(let left, let right): left.names + right.names
        case .not(let inner): inner.names
        }
    }

    /// The canonical form, fully parenthesised, as the official library
    /// prints it.
    public var description: String {
        switch self {
        case .always: ""
        case .tag(let name): Self.escaped(name)
        case .and(let left, let right): "( \(left) and \(right) )"
        case .or(let left, let right): "( \(left) or \(right) )"
        case .not(let inner):
            switch inner {
            case .and, .or: "not \(inner)"
            default: "not ( \(inner) )"
            }
        }
    }

    private static func escaped(_ name: String) -> String {
        var out = ""
        for character in name {
            if character == "\\" || character == "(" || character == ")" || character.isWhitespace { out.append("\\") }
            out.append(character)
        }
        return out
    }
}

/// Why a tag expression could not be parsed.
public struct TagExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The official message, naming the expression and the syntax error.
    public var message: String

    init(_ expression: String, _ problem: String) {
        message = "Tag expression \"\(expression)\" could not be parsed because of syntax error: \(problem)"
    }

    public var description: String { message }
}
