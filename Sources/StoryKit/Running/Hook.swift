/// Code that runs around stories, steps or the whole run, registered in a
/// step class's ``StepDefinitions/define(_:)``.
struct Hook: Sendable {
    /// When a hook runs.
    enum Kind: String, Sendable, Codable {
        case beforeRun = "before run", afterRun = "after run"
        case beforeStory = "before story", afterStory = "after story"
        case beforeStep = "before step", afterStep = "after step"
    }

    let kind: Kind
    /// The tag expression that limits the hook to some stories, if any.
    let tags: String?
    /// Whether a story with these tags gets the hook.
    let appliesTo: @Sendable ([String]) -> Bool
    /// Where the hook was registered.
    let location: SourceLocation
    /// The name it was given, for reports (Cucumber's named hooks).
    var name: String? = nil
    /// How many step definitions were registered before it: reports list
    /// definitions and hooks in the order they were registered.
    var definitionsBefore = 0
    /// Runs the hook in a story's context (or, for run hooks, with none).
    let body: @Sendable (StoryContext?) async throws -> Void
}
