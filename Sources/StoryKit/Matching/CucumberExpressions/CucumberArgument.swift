/// An argument of a match: the text a parameter matched and the value its
/// parameter type made of it.
public struct CucumberArgument: Sendable {
    /// The text the parameter's group matched, or `nil` when the group took
    /// no part in the match (an optional group of a regex step pattern).
    public var text: String?
    /// The converted value, such as an `Int` for `{int}`, or `nil` when the
    /// group took no part in the match.
    public var value: (any Sendable)?
    /// The name of the parameter type that converted the text; empty for
    /// `{}` and for regex groups that no parameter type claims.
    public var parameterTypeName: String

    /// Creates an argument.
    public init(text: String?, value: (any Sendable)?, parameterTypeName: String) {
        self.text = text
        self.value = value
        self.parameterTypeName = parameterTypeName
    }

    /// Builds the arguments of a match from its capture groups.
    ///
    /// - Throws: ``CucumberExpressionError`` when a conversion fails, or when
    ///   the groups and the parameter types don't pair up.
    static func build(from match: RegexGroup, parameterTypes: [ParameterType])
        throws(CucumberExpressionError) -> [CucumberArgument]
    {
        let groups = match.children
        guard groups.count == parameterTypes.count else {
            throw CucumberExpressionError(
                message: "Group has \(groups.count) capture groups "
                    + "(\(groups.map { $0.value ?? "" }.joined(separator: ","))), "
                    + "but there were \(parameterTypes.count) parameter types "
                    + "(\(parameterTypes.map(\.name).joined(separator: ",")))")
        }
        var arguments: [CucumberArgument] = []
        for (group, type) in zip(groups, parameterTypes) {
            var value: (any Sendable)?
            if group.value != nil {
                do {
                    value = try type.transform(group.values)
                } catch let error as CucumberExpressionError {
                    throw error
                } catch {
                    throw CucumberExpressionError(
                        message: "Can't convert '\(group.value ?? "")' to \(type.typeName) "
                            + "for parameter type {\(type.name)}: \(error)")
                }
            }
            arguments.append(
                CucumberArgument(text: group.value, value: value, parameterTypeName: type.name))
        }
        return arguments
    }
}
