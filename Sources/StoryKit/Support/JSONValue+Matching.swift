/// Comparing ``JSONValue``s as a story means them — the step libraries'
/// "the response is JSON …", "… received … with JSON containing …" checks —
/// and printing them for those checks' messages.
///
/// An object is compared by key, in any order, each key with its last value
/// (as a dictionary built from the members would hold it); numbers are
/// compared by value, whatever the kind: `1`, `1.0` and `1e0` are the same
/// number. A whole number within a signed 64-bit integer compares exactly
/// (no rounding to a double above 2^53), however it was written, since the
/// reader keeps it as ``int(_:)``; one beyond `Int64` (an unsigned 64-bit
/// id above `Int64.max`, say) is a ``double(_:)`` and compares rounded to
/// the nearest double, as it prints.
extension JSONValue {
    /// Whether this value is `expected` as a story means it.
    ///
    /// - Without `containing`: the same value, objects ignoring the order
    ///   of their keys.
    /// - With `containing`: every field of `expected` is here with a
    ///   matching value, recursively: an object may have more keys than
    ///   `expected` names (a key that is missing is not a key that is null).
    ///
    /// Lists match element by element, in order and equal in length, with
    /// or without `containing` (their elements matched the same way).
    public func matches(_ expected: JSONValue, containing: Bool = false) -> Bool {
        switch (self, expected) {
        case (.object(let actual), .object(let wanted)):
            let actual = Self.lastValues(actual), wanted = Self.lastValues(wanted)
            if !containing, actual.count != wanted.count { return false }
            return wanted.allSatisfy { key, value in actual[key].map { $0.matches(value, containing: containing) } ?? false }
        case (.array(let actual), .array(let wanted)):
            return actual.count == wanted.count && zip(actual, wanted).allSatisfy { $0.matches($1, containing: containing) }
        case (.int(let actual), .int(let wanted)): return actual == wanted
        case (.int(let whole), .double(let number)), (.double(let number), .int(let whole)): return Int64(exactly: number) == whole
        case (.double(let actual), .double(let wanted)): return actual == wanted
        case (.string(let actual), .string(let wanted)): return actual == wanted
        case (.bool(let actual), .bool(let wanted)): return actual == wanted
        case (.null, .null): return true
        default: return false
        }
    }

    /// An object's members by key, each key with its last value.
    private static func lastValues(_ members: [(String, JSONValue)]) -> [String: JSONValue] {
        Dictionary(members) { _, last in last }
    }

    /// The value as ``matches(_:containing:)`` sees it, for messages: every
    /// object's keys sorted, each once, with its last value.
    public var withSortedKeys: JSONValue {
        switch self {
        case .array(let values): .array(values.map(\.withSortedKeys))
        case .object(let members):
            .object(Self.lastValues(members).sorted { $0.key < $1.key }.map { ($0.key, $0.value.withSortedKeys) })
        default: self
        }
    }
}
