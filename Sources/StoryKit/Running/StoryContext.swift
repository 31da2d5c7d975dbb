/// The state of one running story: its step class instances, its store,
/// what its test steps attached, and how it is going.
final class StoryContext {
    private var instances: [ObjectIdentifier: AnyObject] = [:]
    /// The story's key-value store.
    let store = StoryStore()
    /// What the running test step attached.
    let recorder = AttachmentRecorder()
    /// The story.
    let story: Story

    init(story: Story) {
        self.story = story
        recorder.story = StoryInfo(name: story.name, tags: story.tags, location: story.location, status: .passed, failure: nil)
    }

    /// Notes a failed test step, for hooks that ask how the story is going.
    func noteFailure(_ error: StepError?) {
        guard recorder.story?.status != .failed else { return }
        recorder.story?.status = .failed
        recorder.story?.failure = error
    }

    /// Notes a pending or skipped story, for after hooks that ask.
    func note(pending isPending: Bool, skipped isSkipped: Bool) {
        guard let status = recorder.story?.status, status == .passed || status == .skipped else { return }
        if isPending { recorder.story?.status = .pending } else if isSkipped { recorder.story?.status = .skipped }
    }

    /// Returns the story's instance of a step class, making it on first use.
    func instance<Steps: StepDefinitions>(of type: Steps.Type) -> Steps {
        // Filed under its own type's identifier, so the downcast cannot fail.
        if let existing = instances[ObjectIdentifier(type)] { return unsafeDowncast(existing, to: Steps.self) }
        let made = type.init()
        instances[ObjectIdentifier(type)] = made
        return made
    }
}
