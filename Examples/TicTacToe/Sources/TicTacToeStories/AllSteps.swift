import StoryKit

/// The step classes the stories use: one list for the executable and the
/// tests, so a new step class is added once.
enum AllSteps {
    static let classes: [any StepDefinitions.Type] = [BoardSteps.self]
}
