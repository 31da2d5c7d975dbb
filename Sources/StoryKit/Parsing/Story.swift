/// A runnable story: a `.stories` story or a compiled Gherkin pickle.
///
/// Everything after parsing — matching, running, reporting — sees only this
/// value, whichever file format it came from.
public struct Story: Hashable, Sendable, Codable {
    /// A stable identifier, unique within a run (`path:line`).
    public var id: String
    /// The story's name, as written after `Story:` (or `Scenario:`).
    public var name: String
    /// The tags that reach this story, each with its `@`.
    public var tags: [String]
    /// Where the story begins.
    public var location: SourceLocation
    /// The steps, in the order they run.
    public var steps: [Step]
    /// The name of the group the story belongs to in reports: the file's
    /// Gherkin feature name, or the file name for `.stories`.
    public var groupName: String

    /// Creates a story.
    public init(
        id: String? = nil, name: String, tags: [String] = [], location: SourceLocation,
        steps: [Step], groupName: String? = nil
    ) {
        self.id = id ?? location.fileAndLine
        self.name = name
        self.tags = tags
        self.location = location
        self.steps = steps
        self.groupName = groupName ?? location.file
    }
}
