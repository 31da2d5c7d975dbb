extension StoryRun {
    /// Reads the stories under the paths (files, or folders searched for
    /// `.stories` and `.feature` files), with the problems found in them.
    public static func stories(in paths: [String]) -> (stories: [Story], diagnostics: [Diagnostic]) {
        StoryLoader.load(paths: paths)
    }

    /// Runs one story with the step classes and returns what happened; a
    /// step class whose definitions are rejected gives their diagnostics.
    public static func run(
        _ story: Story, steps: [any StepDefinitions.Type], strict: Bool = false
    ) async -> Result<StoryResult, RegistrationError> {
        let builder = RegistryBuilder()
        builder.register(steps)
        guard builder.diagnostics.isEmpty else { return .failure(RegistrationError(diagnostics: builder.diagnostics)) }
        var runner = Runner(registry: builder.freeze(), configuration: .init(isStrict: strict), now: { 0 })
        var result: StoryResult?
        await runner.run(story) { event in
            if case .storyFinished(let finished) = event { result = finished }
        }
        guard let result else { preconditionFailure("a story always finishes") }
        return .success(result)
    }
}

/// Step definitions that were rejected when they were registered.
public struct RegistrationError: Error, CustomStringConvertible {
    /// One diagnostic per rejected definition.
    public var diagnostics: [Diagnostic]

    public var description: String { diagnostics.map { $0.rendered() }.joined(separator: "\n") }
}
