import StoryKit

/// What the tests that the `StoryTests` plugin generates run with: declare one
/// type named `StorySteps` conforming to it in the test target.
///
/// ```swift
/// import StoryKitTesting
///
/// enum StorySteps: StoryTestSteps {
///     static var steps: [any StepDefinitions.Type] { [BoardSteps.self] }
///     static var strict: Bool { true }
/// }
/// ```
public protocol StoryTestSteps {
    /// The step classes every generated story test runs with.
    static var steps: [any StepDefinitions.Type] { get }
    /// Whether undefined, ambiguous and pending steps fail the story
    /// (`--strict`); false unless said.
    static var strict: Bool { get }
}

extension StoryTestSteps {
    public static var strict: Bool { false }
}
