import Dispatch
import Testing
@testable import StoryKit

/// A value set on the main dispatch queue, which the main actor runs on.
private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

@MainActor final class MainActorTitle {
    var text = ""
}

/// A step class isolated to the main actor, as UI code is.
@MainActor final class MainActorScreenSteps: StepDefinitions {
    let title = MainActorTitle()
    nonisolated(unsafe) static var queues: [String: Bool] = [:]

    nonisolated init() {}

    nonisolated static func define(_ step: StepMap<MainActorScreenSteps>) {
        step.onMainActor("^the screen shows \"(.*)\"$") { (steps: MainActorScreenSteps, text: String) in
            steps.title.text = text
            queues["isolated step"] = DispatchQueue.getSpecific(key: mainQueueKey) ?? false
        }
        step.onMainActor.expression("the title is {string}") { (steps: MainActorScreenSteps, text: String) in
            try expectEqual(steps.title.text, text)
        }
        step("^a step that is not isolated$") { _ in
            queues["plain step"] = DispatchQueue.getSpecific(key: mainQueueKey) ?? false
        }
        step.onMainActor.before { steps in
            steps.title.text = "Home"
            queues["isolated hook"] = DispatchQueue.getSpecific(key: mainQueueKey) ?? false
        }
    }
}

@Suite(.serialized, .timeLimit(.minutes(10))) struct MainActorStepsTests {
    @Test("A @MainActor step class compiles, keeps its state through a story, and its onMainActor closures run on the main actor", .timeLimit(.minutes(10)))
    func mainActorSteps() async throws {
        _ = mainQueueKey
        MainActorScreenSteps.queues = [:]
        let builder = RegistryBuilder()
        builder.register([MainActorScreenSteps.self])
        #expect(builder.diagnostics.isEmpty)
        let (stories, _) = StoriesParser.parse(
            "Story: s\nGiven the screen shows \"Basket\"\nThen the title is \"Basket\"\nAnd a step that is not isolated", path: "t.stories")
        var runner = Runner(registry: builder.freeze(), configuration: .init(), now: { 0 })
        var results: [StoryResult] = []
        _ = await runner.run(stories) { event in
            if case .storyFinished(let result) = event { results.append(result) }
        }
        #expect(results.first?.status == .passed, "\(results.first?.firstFailure?.error?.message ?? "")")
        #expect(MainActorScreenSteps.queues == ["isolated step": true, "isolated hook": true, "plain step": false])
    }
}
