/// Writing a ``JSONValue`` as a Swift literal: `["id": 1, "result": .null]`
/// is an object whose members keep the order written, `"x \(n)"` a string.
extension JSONValue: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral, ExpressibleByStringInterpolation,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral
{
    /// An object, its members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements)
    }

    /// A list.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }

    /// A string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// A string with values written into it.
    public init(stringInterpolation: DefaultStringInterpolation) {
        self = .string(String(stringInterpolation: stringInterpolation))
    }

    /// A whole number.
    public init(integerLiteral value: Int64) {
        self = .int(value)
    }

    /// true or false.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}
