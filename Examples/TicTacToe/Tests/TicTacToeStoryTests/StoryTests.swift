import StoryKitTesting
import Testing
@testable import TicTacToeStories

/// The game's stories inside `swift test`: each story is one test case,
/// named after it, and a failing step is an issue at its line in the story.
/// A story file with a bad line is a failing case of its own. The cases run
/// in parallel; add the `.serialized` trait if the steps share state.
@Test("Story", arguments: StoryCase.all(in: "Stories"))
func story(_ story: StoryCase) async {
    await story.run(steps: AllSteps.classes, strict: true)
}
