/// A named kind of argument: the regular expressions that match its text and
/// the conversion from the matched text to a Swift value.
///
/// The built-in types live in ``ParameterTypeRegistry``; define your own and
/// add them with ``ParameterTypeRegistry/define(_:)``:
///
/// ```swift
/// let color = ParameterType(name: "color", regexps: ["red|green|blue"]) {
///     groups in groups[0] ?? ""
/// }
/// ```
public struct ParameterType: Sendable {
    /// The name used between braces in expressions; empty for the anonymous
    /// type `{}`.
    public var name: String
    /// The regular expressions (ICU syntax) that match the argument's text.
    public var regexps: [String]
    /// The name of the Swift type the conversion returns.
    public var typeName: String
    /// Whether snippets for undefined steps may suggest this type.
    public var useForSnippets: Bool
    /// Whether this type wins when several types share a regular expression
    /// that a regex step pattern uses as a capture group.
    public var preferForRegexpMatch: Bool
    /// Where the type was defined, when a step class defined it.
    var location: SourceLocation?
    /// The conversion, from the texts of the capture groups to a value, or
    /// `nil` when it returned an empty optional.
    let transform: @Sendable ([String?]) throws -> (any Sendable)?

    /// Creates a parameter type.
    ///
    /// - Parameters:
    ///   - name: The name used between braces, as in `{color}`.
    ///   - regexps: The regular expressions that match the argument's text.
    ///   - type: The type of the converted value.
    ///   - useForSnippets: Whether snippets may suggest this type.
    ///   - preferForRegexpMatch: Whether this type wins among types that
    ///     share a regular expression.
    ///   - transform: Converts the texts of the capture groups inside the
    ///     matching regular expression (or, when it has none, the whole
    ///     argument's text) to a value. A group that didn't take part in the
    ///     match is `nil`. Errors it throws become match errors.
    public init<T: Sendable>(
        name: String, regexps: [String], type: T.Type = T.self,
        useForSnippets: Bool = true, preferForRegexpMatch: Bool = false,
        transform: @escaping @Sendable ([String?]) throws -> T
    ) {
        self.name = name
        self.regexps = regexps
        // The name `String(describing:)` gives, without its dynamic casts: start-up.
        self.typeName = _typeName(type, qualified: false)
        self.useForSnippets = useForSnippets
        self.preferForRegexpMatch = preferForRegexpMatch
        self.transform = { groups in
            let value = try transform(groups)
            if let optional = value as? any OptionalValue, optional.isNone { return nil }
            return value
        }
    }

    /// Whether the type is the anonymous one, `{}`.
    var isAnonymous: Bool { name.isEmpty }

    /// Orders types that share a regular expression: preferred ones first,
    /// then by name.
    static func precedes(_ lhs: ParameterType, _ rhs: ParameterType) -> Bool {
        if lhs.preferForRegexpMatch != rhs.preferForRegexpMatch {
            return lhs.preferForRegexpMatch
        }
        return lhs.name < rhs.name
    }
}

/// An optional, seen without its wrapped type, so that an empty optional
/// returned by a conversion becomes a plain `nil` argument value.
private protocol OptionalValue {
    /// Whether the optional is empty.
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    fileprivate var isNone: Bool { self == nil }
}
