/// A step pattern written as a regular expression, whose capture groups
/// become arguments.
///
/// As in the official JavaScript and Ruby implementations, the pattern is
/// searched for in the step text; anchor it with `^…$` to match the whole
/// text. A capture group whose source is exactly a parameter type's regular
/// expression (`(-?\d+)`, say) is converted by that type; any other group's
/// argument is its text.
public struct RegularExpression: Sendable {
    /// The regular expression as written, in ICU syntax.
    public var source: String { regex.pattern }
    private let regex: TreeRegex
    private let registry: ParameterTypeRegistry

    /// Compiles a regular expression.
    ///
    /// - Throws: ``CucumberExpressionError`` when it doesn't compile.
    public init(_ source: String, parameterTypes: ParameterTypeRegistry = .init())
        throws(CucumberExpressionError)
    {
        regex = try TreeRegex(source)
        registry = parameterTypes
    }

    /// Matches a step text against the regular expression.
    ///
    /// - Returns: One argument per top-level capture group, or `nil` when
    ///   the text doesn't match.
    /// - Throws: ``CucumberExpressionError`` when a conversion fails, or when
    ///   several parameter types share a group's regular expression and none
    ///   is preferred.
    public func match(_ text: String) throws(CucumberExpressionError) -> [CucumberArgument]? {
        guard let group = regex.match(text) else { return nil }
        var types: [ParameterType] = []
        for shape in regex.shape.children {
            let type =
                try registry.parameterType(forRegexp: shape.source, in: source)
                ?? ParameterType(name: "", regexps: [shape.source]) { $0.first ?? nil }
            types.append(type)
        }
        return try CucumberArgument.build(from: group, parameterTypes: types)
    }
}
