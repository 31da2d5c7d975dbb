/// A parser that turns a Cucumber expression into its syntax tree, exactly as
/// the official parser does.
///
/// It accepts a superset of Cucumber expressions; what the tree may not
/// contain (parameters in optionals, empty alternatives…) is checked later,
/// when the tree is rewritten into a regular expression.
///
/// ```
/// cucumber-expression = ( alternation | optional | parameter | text )*
/// alternation = (?<=left-boundary) alternative* ( "/" alternative* )+ (?=right-boundary)
/// left-boundary  = whitespace | "}" | "^"
/// right-boundary = whitespace | "{" | "$"
/// alternative = optional | parameter | text
/// optional = "(" option* ")"
/// option = optional | parameter | text
/// parameter = "{" name* "}"
/// name = whitespace | .
/// text = whitespace | ")" | "}" | .
/// ```
struct CucumberExpressionParser {
    typealias Token = CucumberExpressionToken
    typealias Node = CucumberExpressionNode

    /// The sub-parsers, each trying one production at one token.
    private enum Rule {
        case alternation, alternativeSeparator, optional, parameter, name, text
    }

    /// What a sub-parser read: how many tokens, and the nodes they made.
    private struct Parsed {
        var consumed: Int
        var nodes: [Node]
        static let nothing = Parsed(consumed: 0, nodes: [])
    }

    /// How deep optionals may nest: the parser recurses once a level, so
    /// deeper input is refused before it can exhaust the stack. (Any nesting
    /// is an error later, `optionalInOptional`; this bound only keeps the
    /// parser and every walk of its tree off the end of the stack.)
    static let depthLimit = 256

    /// The expression being parsed.
    let expression: String
    private var tokens: [Token] = []

    /// Creates a parser for an expression.
    init(expression: String) {
        self.expression = expression
    }

    /// Parses the expression into a tree whose root is an expression node.
    ///
    /// - Throws: ``CucumberExpressionError`` for a bad escape, a `(` or `{`
    ///   without its closing symbol, a `/` inside an optional, or a symbol
    ///   inside a parameter name.
    mutating func parse() throws(CucumberExpressionError) -> Node {
        tokens = try CucumberExpressionTokenizer(expression: expression).tokenize()
        try checkDepth()
        let parsed = try parseBetween(
            .expression, .startOfLine, .endOfLine,
            rules: [.alternation, .optional, .parameter, .text],
            at: 0)
        return parsed.nodes[0]
    }

    /// Refuses optionals nested deeper than ``depthLimit``, before parsing
    /// (which recurses once a level) starts.
    private func checkDepth() throws(CucumberExpressionError) {
        var depth = 0
        for token in tokens {
            switch token.kind {
            case .beginOptional:
                depth += 1
                if depth > Self.depthLimit {
                    throw .init(.nestedTooDeep(token, limit: Self.depthLimit), in: expression)
                }
            case .endOptional: depth = max(0, depth - 1)
            default: break
            }
        }
    }

    private func parse(_ rule: Rule, at current: Int) throws(CucumberExpressionError) -> Parsed {
        switch rule {
        case .alternation:
            return try parseAlternation(at: current)
        case .alternativeSeparator:
            guard looking(at: current, .alternation) else { return .nothing }
            let token = tokens[current]
            return Parsed(
                consumed: 1,
                nodes: [Node(.alternative, token: token.text, start: token.start, end: token.end)])
        case .optional:
            return try parseBetween(
                .optional, .beginOptional, .endOptional,
                rules: [.optional, .parameter, .text], at: current)
        case .parameter:
            return try parseBetween(
                .parameter, .beginParameter, .endParameter, rules: [.name], at: current)
        case .name:
            let token = tokens[current]
            switch token.kind {
            case .whiteSpace, .text:
                return Parsed(
                    consumed: 1,
                    nodes: [Node(.text, token: token.text, start: token.start, end: token.end)])
            case .beginOptional, .endOptional, .beginParameter, .endParameter, .alternation:
                throw .init(.invalidParameterName(token), in: expression)
            case .startOfLine, .endOfLine:
                return .nothing
            }
        case .text:
            let token = tokens[current]
            switch token.kind {
            case .whiteSpace, .text, .endParameter, .endOptional:
                return Parsed(
                    consumed: 1,
                    nodes: [Node(.text, token: token.text, start: token.start, end: token.end)])
            case .alternation:
                throw .init(.alternationInOptional(token), in: expression)
            default:
                return .nothing
            }
        }
    }

    private func parseAlternation(at current: Int) throws(CucumberExpressionError) -> Parsed {
        guard looking(at: current - 1, anyOf: [.startOfLine, .whiteSpace, .endParameter]) else {
            return .nothing
        }
        let parsed = try parseUntil(
            [.whiteSpace, .endOfLine, .beginParameter],
            rules: [.alternativeSeparator, .optional, .parameter, .text], at: current)
        guard parsed.nodes.contains(where: { $0.kind == .alternative }) else { return .nothing }
        let start = tokens[current].start
        let end = tokens[current + parsed.consumed].start
        // The right boundary token is not consumed.
        return Parsed(
            consumed: parsed.consumed,
            nodes: [
                Node(
                    .alternation, splitAlternatives(parsed.nodes, start: start, end: end),
                    start: start, end: end)
            ])
    }

    private func parseBetween(
        _ kind: Node.Kind, _ begin: Token.Kind, _ end: Token.Kind, rules: [Rule], at current: Int
    ) throws(CucumberExpressionError) -> Parsed {
        guard looking(at: current, begin) else { return .nothing }
        var subCurrent = current + 1
        let parsed = try parseUntil([end, .endOfLine], rules: rules, at: subCurrent)
        subCurrent += parsed.consumed
        guard looking(at: subCurrent, end) else {
            throw .init(.missingEndToken(begin: begin, end: end, tokens[current]), in: expression)
        }
        return Parsed(
            consumed: subCurrent + 1 - current,
            nodes: [
                Node(
                    kind, parsed.nodes, start: tokens[current].start,
                    end: tokens[subCurrent].end)
            ])
    }

    private func parseUntil(_ endKinds: [Token.Kind], rules: [Rule], at startAt: Int)
        throws(CucumberExpressionError) -> Parsed
    {
        var current = startAt
        var nodes: [Node] = []
        while current < tokens.count, !looking(at: current, anyOf: endKinds) {
            var parsed = Parsed.nothing
            for rule in rules {
                parsed = try parse(rule, at: current)
                if parsed.consumed != 0 { break }
            }
            // Every token kind is accepted by some rule, so this can't happen.
            precondition(parsed.consumed != 0, "No eligible parsers for \(tokens[current])")
            current += parsed.consumed
            nodes += parsed.nodes
        }
        return Parsed(consumed: current - startAt, nodes: nodes)
    }

    private func looking(at index: Int, anyOf kinds: [Token.Kind]) -> Bool {
        kinds.contains { looking(at: index, $0) }
    }

    private func looking(at index: Int, _ kind: Token.Kind) -> Bool {
        if index < 0 { return kind == .startOfLine }
        if index >= tokens.count { return kind == .endOfLine }
        return tokens[index].kind == kind
    }

    /// Groups the nodes between separators into alternative nodes.
    private func splitAlternatives(_ nodes: [Node], start: Int, end: Int) -> [Node] {
        var separators: [Node] = []
        var groups: [[Node]] = [[]]
        for node in nodes {
            if node.kind == .alternative {
                separators.append(node)
                groups.append([])
            } else {
                groups[groups.count - 1].append(node)
            }
        }
        return groups.enumerated().map { index, group in
            let groupStart = index == 0 ? start : separators[index - 1].end
            let groupEnd = index == groups.count - 1 ? end : separators[index].start
            return Node(.alternative, group, start: groupStart, end: groupEnd)
        }
    }
}
