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
}
