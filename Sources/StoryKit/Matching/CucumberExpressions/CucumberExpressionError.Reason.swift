extension CucumberExpressionError {
    /// The reasons a Cucumber expression is rejected, each with its place.
    enum Reason: Sendable {
        typealias Token = CucumberExpressionToken
        typealias Node = CucumberExpressionNode

        /// A backslash escapes a character that can't be escaped.
        case cannotEscape(index: Int)
        /// The expression ends with a backslash.
        case endOfLineCannotBeEscaped(index: Int)
        /// A `(` or `{` has no matching `)` or `}`.
        case missingEndToken(begin: Token.Kind, end: Token.Kind, Token)
        /// A `/` appears inside an optional.
        case alternationInOptional(Token)
        /// A parameter name contains a symbol.
        case invalidParameterName(Token)
        /// An optional holds no text.
        case emptyOptional(Node)
        /// An optional holds a parameter.
        case parameterInOptional(Node)
        /// An optional holds another optional.
        case optionalInOptional(Node)
        /// An alternative is empty.
        case emptyAlternative(Node)
        /// An alternative holds only optionals.
        case alternativeOfOptionalsOnly(Node)
        /// A parameter names a type the registry doesn't have.
        case undefinedParameterType(Node, name: String)
        /// Optionals are nested deeper than the parser goes (it recurses
        /// once a level, and a stack has an end).
        case nestedTooDeep(Token, limit: Int)

        /// The parts of the message: place, problem and solution.
        struct Problem {
            var start: Int
            var end: Int?
            var summary: String
            var solution: String
        }

        /// The place and the official words for this reason.
        var problem: Problem {
            switch self {
            case .cannotEscape(let index):
                Problem(
                    start: index, end: nil,
                    summary:
                        #"Only the characters '{', '}', '(', ')', '\', '/' and whitespace can be escaped"#,
                    solution: #"If you did mean to use an '\' you can use '\\' to escape it"#)
            case .endOfLineCannotBeEscaped(let index):
                Problem(
                    start: index, end: nil, summary: "The end of line can not be escaped",
                    solution: #"You can use '\\' to escape the '\'"#)
            case .missingEndToken(let begin, let end, let token):
                Problem(
                    start: token.start, end: token.end,
                    summary: "The '\(begin.symbol)' does not have a matching '\(end.symbol)'",
                    solution:
                        "If you did not intend to use \(begin.purpose) you can use '\\\(begin.symbol)' to escape the \(begin.purpose)"
                )
            case .alternationInOptional(let token):
                Problem(
                    start: token.start, end: token.end,
                    summary: "An alternation can not be used inside an optional",
                    solution:
                        #"If you did not mean to use an alternation you can use '\/' to escape the '/'. Otherwise rephrase your expression or consider using a regular expression instead."#
                )
            case .invalidParameterName(let token):
                Problem(
                    start: token.start, end: token.end,
                    summary: #"Parameter names may not contain '{', '}', '(', ')', '\' or '/'"#,
                    solution: "Did you mean to use a regular expression?")
            case .emptyOptional(let node):
                Problem(
                    start: node.start, end: node.end, summary: "An optional must contain some text",
                    solution:
                        #"If you did not mean to use an optional you can use '\(' to escape the '('"#
                )
            case .parameterInOptional(let node):
                Problem(
                    start: node.start, end: node.end,
                    summary: "An optional may not contain a parameter type",
                    solution:
                        #"If you did not mean to use an parameter type you can use '\{' to escape the '{'"#
                )
            case .optionalInOptional(let node):
                Problem(
                    start: node.start, end: node.end,
                    summary: "An optional may not contain an other optional",
                    solution:
                        #"If you did not mean to use an optional type you can use '\(' to escape the '('. For more complicated expressions consider using a regular expression instead."#
                )
            case .emptyAlternative(let node):
                Problem(
                    start: node.start, end: node.end, summary: "Alternative may not be empty",
                    solution:
                        #"If you did not mean to use an alternative you can use '\/' to escape the '/'"#
                )
            case .alternativeOfOptionalsOnly(let node):
                Problem(
                    start: node.start, end: node.end,
                    summary: "An alternative may not exclusively contain optionals",
                    solution:
                        #"If you did not mean to use an optional you can use '\(' to escape the '('"#
                )
            case .undefinedParameterType(let node, let name):
                Problem(
                    start: node.start, end: node.end,
                    summary: "Undefined parameter type '\(name)'",
                    solution: "Please register a ParameterType for '\(name)'")
            case .nestedTooDeep(let token, let limit):
                Problem(
                    start: token.start, end: token.end,
                    summary: "Optionals may not be nested more than \(limit) deep",
                    solution:
                        #"An optional may not contain an other optional anyway; use '\(' to escape a '(' that is text"#)
            }
        }
    }
}
