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

extension StoryRun {
    /// The ready-to-paste step definition for a step no definition matches,
    /// as a run prints it.
    public static func snippet(for step: Step) -> String {
        Snippet(for: step).code()
    }

    /// Runs the before-run hooks of the step classes, as a command-line run
    /// does before its first story; a diagnostic for each hook that failed.
    /// (``run(_:steps:strict:)`` runs one story and no run hooks: a test
    /// process runs these once, see StoryKitTesting.)
    public static func runBeforeRunHooks(steps: [any StepDefinitions.Type]) async -> [Diagnostic] {
        await runHooks(.beforeRun, steps: steps)
    }

    /// Runs the after-run hooks of the step classes, as a command-line run
    /// does after its last story; a diagnostic for each hook that failed.
    /// `willRun` is told where each hook was registered just before it runs,
    /// so a caller that bounds the wait can name the hook that overran.
    public static func runAfterRunHooks(
        steps: [any StepDefinitions.Type], willRun: @Sendable (SourceLocation) -> Void = { _ in }
    ) async -> [Diagnostic] {
        await runHooks(.afterRun, steps: steps, willRun: willRun)
    }

    private static func runHooks(
        _ kind: Hook.Kind, steps: [any StepDefinitions.Type], willRun: @Sendable (SourceLocation) -> Void = { _ in }
    ) async -> [Diagnostic] {
        let builder = RegistryBuilder()
        builder.register(steps)
        guard builder.diagnostics.isEmpty else { return builder.diagnostics }
        var diagnostics: [Diagnostic] = []
        let hooks = builder.freeze().hooks.filter { $0.kind == kind }
        for hook in kind == .afterRun ? hooks.reversed() : hooks {
            willRun(hook.location)
            do {
                try await hook.body(nil)
            } catch {
                diagnostics.append(Diagnostic(at: hook.location, problem: "the \(kind.rawValue) hook failed: \(StepError(error).message)"))
            }
        }
        return diagnostics
    }
}

/// Step definitions that were rejected when they were registered.
public struct RegistrationError: Error, CustomStringConvertible {
    /// One diagnostic per rejected definition.
    public var diagnostics: [Diagnostic]

    public var description: String { diagnostics.map { $0.rendered() }.joined(separator: "\n") }
}
