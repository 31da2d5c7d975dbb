import Dispatch
import Foundation
import StoryKit

/// A value set on the main dispatch queue (the main actor's), once.
let mainQueueMark: (key: DispatchSpecificKey<Bool>, isSet: Bool) = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return (key, true)
}()

/// A screen, as UI code has: main-actor state.
@MainActor final class Screen {
    var title = "Home"
}

/// Fixture steps isolated to the main actor, as steps that drive UI code
/// are (`Fixtures/stories/good/main-actor.stories`).
@MainActor final class ScreenSteps: StepDefinitions {
    let screen = Screen()

    nonisolated init() {}

    nonisolated static func define(_ step: StepMap<ScreenSteps>) {
        step.onMainActor("^the screen opens \"(.*)\"$") { (steps: ScreenSteps, title: String) in
            steps.screen.title = title
        }
        step.onMainActor.expression("the screen title is {string}") { (steps: ScreenSteps, title: String) in
            try expectEqual(steps.screen.title, title)
        }
        step.onMainActor.expression("the step runs on the main actor") { _ in
            // The main actor is the main dispatch queue; on Linux an async
            // main serves it from a thread that is not the first one, so
            // a value set on the main queue is what tells.
            try expect(DispatchQueue.getSpecific(key: mainQueueMark.key) == true, "a main-actor step ran off the main queue")
        }
    }
}
