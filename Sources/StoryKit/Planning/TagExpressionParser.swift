/// The shunting-yard parser of tag expressions, after the official one.
struct TagExpressionParser {
    private let text: String

    /// A token: a parenthesis, an operator or a tag.
    enum Token: Equatable {
        case open, close, and, or, not
        case tag(String)
    }

    private enum Expected: String {
        case operand, `operator`
    }

    init(_ text: String) {
        self.text = text
    }

    /// How deep the expression tree may be: evaluating, printing and
    /// comparing it recurse once a level. `@a or @b or …` is as deep as it
    /// is long, so the bound is generous; a thousand levels stay well
    /// inside any thread's stack.
    static let depthLimit = 1000

    func parse() throws(TagExpressionError) -> TagExpression {
        let tokens = try tokenize()
        if tokens.isEmpty { return .always }
        var expressions: [TagExpression] = []
        var depths: [Int] = []  // the depth of each of `expressions`
        var operators: [Token] = []
        var expected = Expected.operand
        for token in tokens {
            switch token {
            case .not:
                try check(expected, .operand)
                operators.append(token)
                expected = .operand
            case .and, .or:
                try check(expected, .operator)
                while let top = operators.last, top != .open, Self.precedence(token) <= Self.precedence(top) {
                    try push(operators.removeLast(), onto: &expressions, depths: &depths)
                }
                operators.append(token)
                expected = .operand
            case .open:
                try check(expected, .operand)
                operators.append(token)
                expected = .operand
            case .close:
                try check(expected, .operator)
                while let top = operators.last, top != .open {
                    try push(operators.removeLast(), onto: &expressions, depths: &depths)
                }
                guard operators.popLast() == .open else { throw TagExpressionError(text, "Unmatched ).") }
                expected = .operator
            case .tag(let name):
                try check(expected, .operand)
                expressions.append(.tag(name))
                depths.append(1)
                expected = .operator
            }
        }
        try check(expected, .operator)
        while let top = operators.popLast() {
            guard top != .open else { throw TagExpressionError(text, "Unmatched (.") }
            try push(top, onto: &expressions, depths: &depths)
        }
        guard expressions.count == 1, let result = expressions.first else { throw TagExpressionError(text, "Expected operator.") }
        return result
    }

    /// `or` binds loosest, then `and`, then `not`; `and` and `or` are
    /// left-associative, so an operator pops those of equal precedence.
    private static func precedence(_ token: Token) -> Int {
        switch token {
        case .or: 0
        case .and: 1
        case .not: 2
        default: -1
        }
    }

    private func check(_ expected: Expected, _ found: Expected) throws(TagExpressionError) {
        guard expected == found else { throw TagExpressionError(text, "Expected \(expected.rawValue).") }
    }

    private func push(_ token: Token, onto expressions: inout [TagExpression], depths: inout [Int])
        throws(TagExpressionError)
    {
        var depth = 0
        func pop() throws(TagExpressionError) -> TagExpression {
            guard let last = expressions.popLast(), let lastDepth = depths.popLast() else {
                throw TagExpressionError(text, "Expected operand.")
            }
            depth = max(depth, lastDepth + 1)
            return last
        }
        if token == .and || token == .or || token == .not {
            let operands = token == .not ? 1 : 2
            let deepest = depths.suffix(operands).max() ?? 0
            guard deepest < Self.depthLimit else {
                throw TagExpressionError(text, "Nested more than \(Self.depthLimit) deep.")
            }
        }
        switch token {
        case .and:
            let right = try pop()
            expressions.append(.and(try pop(), right))
            depths.append(depth)
        case .or:
            let right = try pop()
            expressions.append(.or(try pop(), right))
            depths.append(depth)
        case .not:
            expressions.append(.not(try pop()))
            depths.append(depth)
        default:
            break
        }
    }

    /// Splits the text at blanks and parentheses; `\` escapes `(`, `)`, `\`
    /// and blanks, and nothing else.
    private func tokenize() throws(TagExpressionError) -> [Token] {
        var tokens: [Token] = []
        var word = ""
        var isEscaped = false
        func endWord() {
            guard !word.isEmpty else { return }
            switch word {
            case "and": tokens.append(.and)
            case "or": tokens.append(.or)
            case "not": tokens.append(.not)
            default: tokens.append(.tag(word))
            }
            word = ""
        }
        for character in text {
            if isEscaped {
                guard character == "(" || character == ")" || character == "\\" || character.isWhitespace else {
                    throw TagExpressionError(text, "Illegal escape before \"\(character)\".")
                }
                word.append(character)
                isEscaped = false
            } else if character == "\\" {
                isEscaped = true
            } else if character == "(" || character == ")" || character.isWhitespace {
                endWord()
                if character == "(" { tokens.append(.open) } else if character == ")" { tokens.append(.close) }
            } else {
                word.append(character)
            }
        }
        endWord()
        return tokens
    }
}
