/// A rewriter of a Cucumber expression's syntax tree into a regular
/// expression, which also checks what the parser let through.
///
/// ```
/// expression  -> "^" + rewrite(nodes) + "$"
/// alternation -> "(?:" + rewrite(alternative 1) + "|" + … + ")"
/// optional    -> "(?:" + rewrite(nodes) + ")?"
/// parameter   -> "(" + regexp + ")", or "((?:" + r1 + ")|(?:" + r2 + "))"
/// text        -> the text with ^ $ [ ] ( ) \ { } . | ? * + escaped
/// ```
struct CucumberExpressionCompiler {
    typealias Node = CucumberExpressionNode

    /// The expression, for error messages.
    let expression: String
    /// The parameter types parameters may name.
    let registry: ParameterTypeRegistry
    /// The parameter types met so far, in order.
    private(set) var parameterTypes: [ParameterType] = []

    /// Creates a compiler.
    init(expression: String, registry: ParameterTypeRegistry) {
        self.expression = expression
        self.registry = registry
    }

    /// Rewrites a node into a regular expression.
    ///
    /// - Throws: ``CucumberExpressionError`` for an optional holding a
    ///   parameter, another optional or no text; an empty alternative or one
    ///   with only optionals; or an undefined parameter type.
    mutating func rewrite(_ node: Node) throws(CucumberExpressionError) -> String {
        switch node.kind {
        case .text:
            return Self.escaped(node.token ?? "")
        case .optional:
            if let parameter = node.nodes.first(where: { $0.kind == .parameter }) {
                throw error(.parameterInOptional(parameter))
            }
            if let optional = node.nodes.first(where: { $0.kind == .optional }) {
                throw error(.optionalInOptional(optional))
            }
            guard node.nodes.contains(where: { $0.kind == .text }) else {
                throw error(.emptyOptional(node))
            }
            return "(?:" + (try rewrite(node.nodes)) + ")?"
        case .alternation:
            for alternative in node.nodes {
                guard !alternative.nodes.isEmpty else {
                    throw error(.emptyAlternative(alternative))
                }
                guard alternative.nodes.contains(where: { $0.kind == .text }) else {
                    throw error(.alternativeOfOptionalsOnly(alternative))
                }
            }
            var alternatives: [String] = []
            for alternative in node.nodes {
                alternatives.append(try rewrite(alternative))
            }
            return "(?:" + alternatives.joined(separator: "|") + ")"
        case .alternative:
            return try rewrite(node.nodes)
        case .parameter:
            let name = node.text
            guard let type = registry.parameterType(named: name) else {
                throw error(.undefinedParameterType(node, name: name))
            }
            parameterTypes.append(type)
            if type.regexps.count == 1 {
                return "(" + type.regexps[0] + ")"
            }
            return "((?:" + type.regexps.joined(separator: ")|(?:") + "))"
        case .expression:
            return "^" + (try rewrite(node.nodes)) + "$"
        }
    }

    private mutating func rewrite(_ nodes: [Node]) throws(CucumberExpressionError) -> String {
        var pattern = ""
        for node in nodes {
            pattern += try rewrite(node)
        }
        return pattern
    }

    private func error(_ reason: CucumberExpressionError.Reason) -> CucumberExpressionError {
        CucumberExpressionError(reason, in: expression)
    }

    /// Returns text with every regular-expression metacharacter escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if #"\^[({$.|?*+})]"#.contains(character) {
                result.append("\\")
            }
            result.append(character)
        }
        return result
    }
}
