/// A set of parameter types, looked up by name from Cucumber expressions and
/// by regular expression from regex step patterns.
///
/// A new registry holds the built-in types (see
/// `ParameterTypeRegistry+BuiltIns.swift`). Add your own with
/// ``define(_:)``, then share the registry as an immutable value.
public struct ParameterTypeRegistry: Sendable {
    private var typesByName: [String: ParameterType] = [:]
    private var typesByRegexp: [String: [ParameterType]] = [:]
    private var definitionOrder: [String] = []

    /// Creates a registry holding the built-in parameter types.
    public init() {
        for type in Self.builtIns {
            // The built-in types have distinct, valid names.
            try! define(type)
        }
    }

    /// The parameter types, in the order they were defined.
    public var parameterTypes: [ParameterType] {
        definitionOrder.compactMap { typesByName[$0] }
    }

    /// Returns the parameter type with a name, if there is one.
    public func parameterType(named name: String) -> ParameterType? {
        typesByName[name]
    }

    /// Adds a parameter type.
    ///
    /// - Throws: ``CucumberExpressionError`` when the name contains `{`, `}`,
    ///   `(`, `)`, `\` or `/`, when a type with the same name exists, or when
    ///   two preferred types would share a regular expression.
    public mutating func define(_ type: ParameterType) throws(CucumberExpressionError) {
        if type.name.contains(where: { "{}()\\/".contains($0) }) {
            throw CucumberExpressionError(
                message: "Illegal character in parameter name {\(type.name)}. "
                    + #"Parameter names may not contain '{', '}', '(', ')', '\' or '/'"#)
        }
        if typesByName[type.name] != nil {
            throw CucumberExpressionError(
                message: type.isAnonymous
                    ? "The anonymous parameter type has already been defined"
                    : "There is already a parameter type with name \(type.name)")
        }
        for regexp in type.regexps {
            if let first = typesByRegexp[regexp]?.first, first.preferForRegexpMatch,
                type.preferForRegexpMatch
            {
                throw CucumberExpressionError(
                    message: "There can only be one preferential parameter type per regexp. "
                        + "The regexp /\(regexp)/ is used for two preferential parameter types, "
                        + "{\(first.name)} and {\(type.name)}")
            }
        }
        typesByName[type.name] = type
        definitionOrder.append(type.name)
        for regexp in type.regexps {
            typesByRegexp[regexp, default: []].append(type)
            typesByRegexp[regexp]?.sort(by: ParameterType.precedes)
        }
    }

    /// Returns the type whose regular expression is exactly a capture group's
    /// source, for regex step patterns.
    ///
    /// - Returns: The preferred or only such type, or `nil` when none has it.
    /// - Throws: ``CucumberExpressionError`` when several types have it and
    ///   none is preferred.
    func parameterType(forRegexp regexp: String, in pattern: String)
        throws(CucumberExpressionError) -> ParameterType?
    {
        guard let types = typesByRegexp[regexp], let first = types.first else { return nil }
        if types.count > 1 && !first.preferForRegexpMatch {
            throw CucumberExpressionError(
                message: """
                    Your Regular Expression /\(pattern)/
                    matches multiple parameter types with regexp /\(regexp)/:
                       \(types.map { "{\($0.name)}" }.joined(separator: "\n   "))

                    I couldn't decide which one to use. \
                    Make one of the parameter types preferential and continue to use a Regular Expression.

                    """)
        }
        return first
    }
}
