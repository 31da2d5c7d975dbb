/// An immutable value in one reference: a struct whose value is one of
/// these is copied with one retain, however many strings and arrays the
/// value holds. ``Story``, ``Step`` and ``StepResult`` keep their fields
/// so, since they are copied from the runner through every event to every
/// report; setting a field puts a changed copy in a new reference.
final class Shared<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// The value with `change` made, in a new reference.
    func changed(_ change: (inout Value) -> Void) -> Shared {
        var value = value
        change(&value)
        return Shared(value)
    }
}

/// Equal when the values are (one reference is equal to itself at once).
extension Shared: Equatable where Value: Equatable {
    static func == (lhs: Shared, rhs: Shared) -> Bool {
        lhs === rhs || lhs.value == rhs.value
    }
}

extension Shared: Hashable where Value: Hashable {
    func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}

/// Coded as its value alone, as if there were no reference.
extension Shared: Encodable where Value: Encodable {
    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

extension Shared: Decodable where Value: Decodable {
    convenience init(from decoder: any Decoder) throws {
        self.init(try Value(from: decoder))
    }
}
