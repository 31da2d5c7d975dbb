/// The state of one running story: its step class instances and its store.
final class StoryContext {
    private var instances: [ObjectIdentifier: AnyObject] = [:]
    /// The story's key-value store.
    let store = StoryStore()

    /// Returns the story's instance of a step class, making it on first use.
    func instance<Steps: StepDefinitions>(of type: Steps.Type) -> Steps {
        // Filed under its own type's identifier, so the downcast cannot fail.
        if let existing = instances[ObjectIdentifier(type)] { return unsafeDowncast(existing, to: Steps.self) }
        let made = type.init()
        instances[ObjectIdentifier(type)] = made
        return made
    }
}
