/// Reading the parts of a ``JSONValue``: each accessor gives the value when
/// it is of that kind, and nil otherwise (no conversions between kinds,
/// but a number written with a fraction of zero is a whole number).
extension JSONValue {
    /// The value of an object's member (its first with that key); nil when
    /// this is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for (name, value) in members where name == key { return value }
        return nil
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The whole number, if this is one that fits 64 bits.
    public var intValue: Int64? {
        switch self {
        case .int(let value): value
        case .double(let value) where value == value.rounded() && abs(value) < 9.2e18: Int64(value)
        default: nil
        }
    }

    /// The number, if this is one.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The Boolean, if this is true or false.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The elements, if this is a list.
    public var arrayValue: [JSONValue]? {
        if case .array(let values) = self { values } else { nil }
    }

    /// The members in their order, if this is an object.
    public var objectMembers: [(String, JSONValue)]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// Whether this is null.
    public var isNull: Bool {
        if case .null = self { true } else { false }
    }

    /// What kind of value this is, for messages: "a string", "an object"…
    public var kind: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
