/// A runnable story: a `.stories` story or a compiled Gherkin pickle.
///
/// Everything after parsing — matching, running, reporting — sees only this
/// value, whichever file format it came from.
///
/// Its fields live in one shared, immutable reference: a story is copied
/// into its plan, its context and its result, and each copy is then one
/// retain rather than one per string and list. Setting a field makes a new
/// reference.
public struct Story: Hashable, Sendable, Codable {
    /// A stable identifier, unique within a run (`path:line`).
    public var id: String {
        _read { yield fields.value.id }
        set { fields = fields.changed { $0.id = newValue } }
    }
    /// The story's name, as written after `Story:` (or `Scenario:`).
    public var name: String {
        _read { yield fields.value.name }
        set { fields = fields.changed { $0.name = newValue } }
    }
    /// The tags that reach this story, each with its `@`.
    public var tags: [String] {
        _read { yield fields.value.tags }
        set { fields = fields.changed { $0.tags = newValue } }
    }
    /// Where the story begins.
    public var location: SourceLocation {
        _read { yield fields.value.location }
        set { fields = fields.changed { $0.location = newValue } }
    }
    /// The steps, in the order they run.
    public var steps: [Step] {
        _read { yield fields.value.steps }
        set { fields = fields.changed { $0.steps = newValue } }
    }

    /// Whether the story is a row of a feature's outline (`Examples:`): a
    /// row starts below the outline's steps, a scenario above its last one.
    var isOutlineRow: Bool {
        guard let last = steps.last else { return false }
        return last.location.line < location.line
    }
    /// The name of the group the story belongs to in reports: the file's
    /// Gherkin feature name, or the file name for `.stories`.
    public var groupName: String {
        _read { yield fields.value.groupName }
        set { fields = fields.changed { $0.groupName = newValue } }
    }

    /// The fields, in one shared reference (see ``Shared``).
    private var fields: Shared<Fields>

    /// Creates a story.
    public init(
        id: String? = nil, name: String, tags: [String] = [], location: SourceLocation,
        steps: [Step], groupName: String? = nil
    ) {
        fields = Shared(Fields(
            id: id ?? location.fileAndLine, name: name, tags: tags, location: location, steps: steps,
            groupName: groupName ?? location.file))
    }

    /// A story's fields: what it compares, hashes and encodes (as the story
    /// itself did when they were its own).
    private struct Fields: Hashable, Sendable, Codable {
        var id: String
        var name: String
        var tags: [String]
        var location: SourceLocation
        var steps: [Step]
        var groupName: String
    }

    public init(from decoder: any Decoder) throws {
        fields = try Shared(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
    }
}

/// Printed and dumped field by field, as before its fields were shared.
extension Story: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: fields.value).children, displayStyle: .struct)
    }
}
