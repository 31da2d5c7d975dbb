import StoryKit
import StoryKitHTTP
import StoryKitProcess

/// The step classes of storyrun's own stories in `Stories/`, and of the
/// fixture stories those stories run.
public enum StoryrunSteps {
    /// The step classes that drive storyrun on fixture files.
    public static let driver: [any StepDefinitions.Type] = [StoryrunDriverSteps.self, WatchSteps.self] + stepLibraries

    /// The step libraries storyrun ships (command-line programs, HTTP
    /// services, stub services), which its stories use as a user would.
    public static let stepLibraries: [any StepDefinitions.Type] = [
        ProcessSteps.self, HTTPSteps.self, StubServiceSteps.self,
    ]

    /// The step classes the fixture stories in `Fixtures/` are written against.
    public static let fixtures: [any StepDefinitions.Type] = [
        BasketSteps.self, CheckoutSteps.self, MoodSteps.self, RunControlSteps.self, PrinterSteps.self, WorkInProgressSteps.self, ScreenSteps.self,
    ]

    /// The fixture steps and the steps that read user parameters (`Fixtures/config`).
    public static let parameters: [any StepDefinitions.Type] = fixtures + [ParameterSteps.self]

    /// The fixture steps and the steps that misbehave on purpose
    /// (`Fixtures/stories/faults`).
    public static let faults: [any StepDefinitions.Type] = fixtures + [FaultSteps.self, RegistrationLogSteps.self, ChildProcessSteps.self]

    /// The step libraries and the steps that misbehave on purpose: step
    /// code that changes the process the libraries' steps run in.
    public static let stepLibraryFaults: [any StepDefinitions.Type] = stepLibraries + [FaultSteps.self]

    /// The fixture steps and a definition registration rejects (watch mode
    /// goes on watching).
    public static let rejected: [any StepDefinitions.Type] = fixtures + [RejectedSteps.self]

    /// The step classes of `Fixtures/cucumber-json`, twins of its Ruby steps.
    public static let shop: [any StepDefinitions.Type] = [ShopSteps.self]

    /// The step class of the random suites of `Tests/Consistency/consistency.py`.
    public static let consistency: [any StepDefinitions.Type] = [ConsistencySteps.self]
}
