extension ParameterTypeRegistry {
    /// The regular expressions of the whole-number types.
    static let integerRegexps = [#"-?\d+"#, #"\d+"#]
    /// The regular expression of the decimal-number types.
    static let floatRegexp = #"(?=.*\d.*)[-+]?\d*(?:\.(?=\d.*))?\d*(?:\d+[E][+-]?\d+)?"#
    /// The regular expression of `{word}`: anything but whitespace.
    static let wordRegexp = #"[^\s]+"#
    /// The regular expression of `{string}`: text in double or single quotes.
    static let stringRegexp = #""([^"\\]*(\\.[^"\\]*)*)"|'([^'\\]*(\\.[^'\\]*)*)'"#
    /// The regular expression of the anonymous type `{}`: anything.
    static let anonymousRegexp = ".*"

    /// The official built-in parameter types, with their Swift types.
    ///
    /// | name | Swift type |
    /// |---|---|
    /// | `int` | `Int` |
    /// | `float` | `Float` |
    /// | `double` | `Double` |
    /// | `byte`, `short`, `long` | `Int8`, `Int16`, `Int64` |
    /// | `biginteger`, `bigdecimal` | ``BigNumber`` (every digit kept) |
    /// | `word`, `string`, `` (anonymous) | `String` |
    static let builtIns: [ParameterType] = [
        ParameterType(
            name: "int", regexps: integerRegexps, preferForRegexpMatch: true,
            transform: { try number($0, as: Int.self, "int") }),
        ParameterType(
            name: "float", regexps: [floatRegexp],
            transform: { try number($0, as: Float.self, "float") }),
        ParameterType(
            name: "word", regexps: [wordRegexp], useForSnippets: false,
            transform: { $0.first.flatMap { $0 } ?? "" }),
        ParameterType(
            name: "string", regexps: [stringRegexp],
            transform: { groups in
                let quoted = groups.first.flatMap { $0 } ?? groups.dropFirst().first.flatMap { $0 }
                return (quoted ?? "")
                    .replacingOccurrences(of: #"\""#, with: #"""#)
                    .replacingOccurrences(of: #"\'"#, with: "'")
            }),
        ParameterType(
            name: "", regexps: [anonymousRegexp], useForSnippets: false,
            preferForRegexpMatch: true, transform: { $0.first.flatMap { $0 } ?? "" }),
        ParameterType(
            name: "double", regexps: [floatRegexp], useForSnippets: false,
            transform: { try number($0, as: Double.self, "double") }),
        ParameterType(
            name: "bigdecimal", regexps: [floatRegexp], useForSnippets: false,
            transform: { try number($0, as: BigNumber.self, "bigdecimal") }),
        ParameterType(
            name: "byte", regexps: integerRegexps, useForSnippets: false,
            transform: { try number($0, as: Int8.self, "byte") }),
        ParameterType(
            name: "short", regexps: integerRegexps, useForSnippets: false,
            transform: { try number($0, as: Int16.self, "short") }),
        ParameterType(
            name: "long", regexps: integerRegexps, useForSnippets: false,
            transform: { try number($0, as: Int64.self, "long") }),
        ParameterType(
            name: "biginteger", regexps: integerRegexps, useForSnippets: false,
            transform: { try number($0, as: BigNumber.self, "biginteger") }),
    ]

    /// Converts the first group's text to a number.
    ///
    /// `\d` matches any decimal digit, such as `٣`; like the official Python
    /// implementation, such digits count as their ASCII equivalents.
    ///
    /// - Throws: ``CucumberExpressionError`` when the text doesn't fit the
    ///   type, such as `300` for a byte.
    private static func number<T: LosslessStringConvertible>(
        _ groups: [String?], as type: T.Type, _ name: String
    ) throws(CucumberExpressionError) -> T {
        let text = groups.first.flatMap { $0 } ?? ""
        var ascii = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !scalar.isASCII, scalar.properties.numericType == .decimal,
                let digit = scalar.properties.numericValue,
                let asciiDigit = Unicode.Scalar(48 + Int(digit))
            {
                ascii.append(asciiDigit)
            } else {
                ascii.append(scalar)
            }
        }
        guard let value = T(String(ascii)) else {
            throw CucumberExpressionError(
                message: "Can't convert '\(text)' to \(T.self) for parameter type {\(name)}")
        }
        return value
    }
}
