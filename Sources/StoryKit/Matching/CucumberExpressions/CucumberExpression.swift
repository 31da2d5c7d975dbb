/// A step pattern written as a Cucumber expression, such as
/// `I have {int} cucumber(s) in my belly/stomach`.
///
/// Matching follows the official implementations: the expression becomes an
/// anchored regular expression (``regexPattern``), which must match the
/// whole step text, case-sensitively; each parameter's text is converted by
/// its parameter type.
///
/// ```swift
/// let expression = try CucumberExpression("I have {int} cucumber(s)")
/// let arguments = try expression.match("I have 3 cucumbers")
/// // arguments?.first?.value as? Int == 3
/// ```
public struct CucumberExpression: Sendable {
    /// The expression as written.
    public private(set) var source: String
    /// The regular expression the expression turns into, `^…$`, exactly as
    /// the official implementations write it.
    public var regexPattern: String { regex.pattern }
    /// The parameter types of the expression's parameters, in order: one per
    /// argument of a match.
    public private(set) var parameterTypes: [ParameterType]
    /// The syntax tree of the expression.
    let syntaxTree: CucumberExpressionNode
    /// The nesting of its regex's capture groups (``GroupShape/parents``).
    let groupParents: [Int32]
    /// How many capture groups its regex has, nested ones included.
    let groupCount: Int
    private let regex: TreeRegex

    /// Parses an expression and turns it into a regular expression.
    ///
    /// - Parameters:
    ///   - source: The expression.
    ///   - parameterTypes: The parameter types its parameters may name.
    /// - Throws: ``CucumberExpressionError``, with the official message, when
    ///   the expression is malformed or names an undefined parameter type.
    public init(_ source: String, parameterTypes: ParameterTypeRegistry = .init())
        throws(CucumberExpressionError)
    {
        var parser = CucumberExpressionParser(expression: source)
        let tree = try parser.parse()
        var compiler = CucumberExpressionCompiler(
            expression: source, registry: parameterTypes)
        let pattern = try compiler.rewrite(tree)
        self.source = source
        self.syntaxTree = tree
        self.parameterTypes = compiler.parameterTypes
        // `$` would also match before a final line break; `\z` doesn't.
        self.regex = try TreeRegex(
            pattern, compiling: pattern.dropLast() + #"\z"#, isWholeTextMatch: true)
        groupParents = regex.shape.parents
        groupCount = regex.shape.groupCount - 1
    }

    /// Matches a step text against the expression.
    ///
    /// - Parameter text: The whole step text.
    /// - Returns: One argument per parameter, or `nil` when the text doesn't
    ///   match.
    /// - Throws: ``CucumberExpressionError`` when a parameter type's
    ///   conversion fails, such as `300` for `{byte}`.
    public func match(_ text: String) throws(CucumberExpressionError) -> [CucumberArgument]? {
        guard let group = regex.match(text) else { return nil }
        return try CucumberArgument.build(from: group, parameterTypes: parameterTypes)
    }

    /// ``match(_:)`` with where each capture group of its regex lies in
    /// `text` (``GroupSpans``), for reports.
    func located(_ text: String) throws(CucumberExpressionError) -> (arguments: [CucumberArgument], spans: GroupSpans)? {
        guard let (group, spans) = regex.located(text) else { return nil }
        return (try CucumberArgument.build(from: group, parameterTypes: parameterTypes), spans)
    }
}
