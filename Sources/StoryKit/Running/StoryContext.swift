/// The state of one running story: its step class instances, its store,
/// what its test steps attached, and how it is going.
final class StoryContext {
    /// The step class instances made so far, by their class: a story uses
    /// a few, so a short list searched in order beats a dictionary.
    private var instances: [(type: ObjectIdentifier, instance: AnyObject)] = []
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
        let id = ObjectIdentifier(type)
        for entry in instances where entry.type == id { return unsafeDowncast(entry.instance, to: Steps.self) }
        let made = type.init()
        if instances.isEmpty { instances.reserveCapacity(4) }
        instances.append((id, made))
        return made
    }
}
