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
        _read { yield fields.id }
        set { change { $0.id = newValue } }
    }
    /// The story's name, as written after `Story:` (or `Scenario:`).
    public var name: String {
        _read { yield fields.name }
        set { change { $0.name = newValue } }
    }
    /// The tags that reach this story, each with its `@`.
    public var tags: [String] {
        _read { yield fields.tags }
        set { change { $0.tags = newValue } }
    }
    /// Where the story begins.
    public var location: SourceLocation {
        _read { yield fields.location }
        set { change { $0.location = newValue } }
    }
    /// The steps, in the order they run.
    public var steps: [Step] {
        _read { yield fields.steps }
        set { change { $0.steps = newValue } }
    }
    /// The name of the group the story belongs to in reports: the file's
    /// Gherkin feature name, or the file name for `.stories`.
    public var groupName: String {
        _read { yield fields.groupName }
        set { change { $0.groupName = newValue } }
    }

    private var fields: Fields

    /// Creates a story.
    public init(
        id: String? = nil, name: String, tags: [String] = [], location: SourceLocation,
        steps: [Step], groupName: String? = nil
    ) {
        fields = Fields(
            Fields.Values(
                id: id ?? location.fileAndLine, name: name, tags: tags, location: location, steps: steps,
                groupName: groupName ?? location.file))
    }

    /// Changes a field in a copy of the fields.
    private mutating func change(_ body: (inout Fields.Values) -> Void) {
        var values = fields.values
        body(&values)
        fields = Fields(values)
    }

    public static func == (lhs: Story, rhs: Story) -> Bool {
        lhs.fields === rhs.fields || lhs.fields.values == rhs.fields.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.values)
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, tags, location, steps, groupName
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let location = try container.decode(SourceLocation.self, forKey: .location)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            tags: try container.decode([String].self, forKey: .tags), location: location,
            steps: try container.decode([Step].self, forKey: .steps), groupName: try container.decode(String.self, forKey: .groupName))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(tags, forKey: .tags)
        try container.encode(location, forKey: .location)
        try container.encode(steps, forKey: .steps)
        try container.encode(groupName, forKey: .groupName)
    }

    /// A story's fields, never changed once made (so shared freely).
    private final class Fields: Sendable {
        struct Values: Hashable {
            var id: String
            var name: String
            var tags: [String]
            var location: SourceLocation
            var steps: [Step]
            var groupName: String
        }

        let id: String
        let name: String
        let tags: [String]
        let location: SourceLocation
        let steps: [Step]
        let groupName: String

        init(_ values: Values) {
            id = values.id
            name = values.name
            tags = values.tags
            location = values.location
            steps = values.steps
            groupName = values.groupName
        }

        var values: Values {
            Values(id: id, name: name, tags: tags, location: location, steps: steps, groupName: groupName)
        }
    }
}

/// Printed and dumped field by field, as before its fields were shared.
extension Story: CustomReflectable {
    public var customMirror: Mirror {
        Mirror(self, children: ["id": id, "name": name, "tags": tags, "location": location, "steps": steps, "groupName": groupName], displayStyle: .struct)
    }
}
