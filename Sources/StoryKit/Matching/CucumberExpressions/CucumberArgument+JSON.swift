import Foundation

extension CucumberArgument {
    /// Renders argument values as a JSON array, such as `[3,"red",1.5,null]`.
    ///
    /// Numbers are JSON numbers (a `Decimal` or ``BigNumber`` keeps every
    /// digit); strings are quoted and escaped; an absent value, or a number
    /// that isn't finite, is `null`; any other value is its description,
    /// quoted.
    static func jsonArray(_ arguments: [CucumberArgument]) -> String {
        "[" + arguments.map { jsonValue($0.value) }.joined(separator: ",") + "]"
    }

    /// Renders one value as JSON text.
    static func jsonValue(_ value: (any Sendable)?) -> String {
        switch value {
        case nil:
            return "null"
        case let value as Bool:
            return value ? "true" : "false"
        case let value as any BinaryInteger:
            return "\(value)"
        case let value as Float:
            return value.isFinite ? "\(value)" : "null"
        case let value as Double:
            return value.isFinite ? "\(value)" : "null"
        case let value as Decimal:
            return value.isNaN ? "null" : "\(value)"
        case let value as BigNumber:
            return value.jsonText
        case let value as String:
            return jsonString(value)
        case let value?:
            return jsonString(String(describing: value))
        }
    }

    /// Quotes and escapes a string for JSON.
    static func jsonString(_ string: String) -> String {
        JSONValue.quoted(string)
    }
}
