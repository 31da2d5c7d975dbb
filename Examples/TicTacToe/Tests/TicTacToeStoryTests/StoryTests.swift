import StoryKitTesting
import Testing
@testable import TicTacToeStories

/// The game's stories inside `swift test`: each story is one test case,
/// named after it, and a failing step is an issue at its line in the story.
@Test("Story", arguments: StoryCase.all(in: "Stories"))
func story(_ story: StoryCase) async {
    await story.run(steps: [BoardSteps.self], strict: true)
}
