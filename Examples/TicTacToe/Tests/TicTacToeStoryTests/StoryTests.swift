import StoryKit
import StoryKitTesting
@testable import TicTacToeStories

/// The game's stories inside `swift test`: the StoryTests plugin generates a
/// test per story from `Stories/` (a suite per file), so `swift test list`
/// shows each story and `swift test --filter Diagonal` runs one. A failing
/// step is an issue at its line in the story; a story file with a bad line is
/// a failing test at that line. This type gives the generated tests their
/// step classes.
enum StorySteps: StoryTestSteps {
    static var steps: [any StepDefinitions.Type] { AllSteps.classes }
    static var strict: Bool { true }
}
