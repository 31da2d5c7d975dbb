/// What a step or hook can know about the story it runs in: its name, tags
/// and place, and — in an after hook — whether it failed and why.
///
/// ```swift
/// step.after { steps in
///     if steps.story.status == .failed { attach(screenshot(), mediaType: "image/png") }
/// }
/// ```
public struct StoryInfo: Sendable {
    /// The story's name.
    public var name: String
    /// Its tags, each with its `@`.
    public var tags: [String]
    /// Where it begins.
    public var location: SourceLocation
    /// `.failed` once a step or hook of this attempt has failed, else `.passed`.
    public var status: StoryStatus
    /// The first failure of this attempt, if any.
    public var failure: StepError?
}

extension StepDefinitions {
    /// The story that is running: name, tags, place, status so far.
    public var story: StoryInfo {
        AttachmentRecorder.current?.story
            ?? StoryInfo(name: "", tags: [], location: SourceLocation(file: "", line: 0), status: .passed, failure: nil)
    }
}
