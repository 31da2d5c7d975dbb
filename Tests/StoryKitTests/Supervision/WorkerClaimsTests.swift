import Testing
@testable import StoryKit
import StoryrunSteps

/// The parent takes no worker's word for where a step's arguments lie, nor
/// for which definition matched: a forged line keeps its step, loses its
/// spans (and a JSON result its id), and reports show the arguments unplaced.
@Suite(.timeLimit(.minutes(10))) struct WorkerClaimsTests {
    private static func registry() -> StepRegistry {
        let builder = RegistryBuilder()
        builder.register(StoryrunSteps.faults)
        return builder.freeze()
    }

    private static func story(_ text: String) -> Story {
        let (stories, _) = StoriesParser.parse("Story: s\n  Given \(text)\n", path: "s.stories")
        return stories[0]
    }

    /// The match of the story's one step, rebuilt from a compact line.
    private static func rebuilt(_ line: String, story: Story, registry: StepRegistry) -> MatchInfo? {
        let message = Array(line.utf8).withUnsafeBufferPointer { WorkerWire.parse(bytes: $0) }
        guard case .passed(_, _, let testSteps)? = message, let testStep = testSteps.first else { return nil }
        var index = 0
        guard case .step(let step)? = Supervisor.rebuild(testStep, stepIndex: &index, story: story, registry: registry, style: .regex) else { return nil }
        return step.match
    }

    @Test("A worker's spans that place its arguments are kept; forged ones are dropped, the step kept")
    func forgedSpans() throws {
        let registry = Self.registry()
        let story = Self.story(#"a step with nested "ab-12""#)
        let match = try #require(registry.matches(story.steps[0]).winner)
        let id = match.definition.id
        // What the matcher found: each group at its own place, the optional one in no part.
        #expect(match.spans.bounds == [20, 25, 20, 22, 23, 25, -1, -1])
        let honest = try #require(Self.rebuilt("P 1 5 s:3:\(id):ab-12,ab,12,~:20,25,20,22,23,25,-1,-1", story: story, registry: registry))
        #expect(honest.spans.bounds == [20, 25, 20, 22, 23, 25, -1, -1])
        for forged in [
            "20,25,21,23,23,25,-1,-1",  // "b-" is not "ab"
            "20,25,20,22,23,99,-1,-1",  // past the step's text
            "20,25,20,22,-1,-1,-1,-1",  // "12" took no part
            "20,25,20,22",  // too few groups
            "0,5,0,2,3,5,-1,-1",  // the texts are not there
        ] {
            let rebuilt = try #require(Self.rebuilt("P 1 5 s:3:\(id):ab-12,ab,12,~:\(forged)", story: story, registry: registry), "\(forged)")
            #expect(rebuilt.spans.isEmpty, "\(forged)")
            #expect(rebuilt.arguments == ["ab-12", "ab", "12", nil])
        }
        // A line with spans that are not pairs is no message.
        #expect(Array("P 1 5 s:3:\(id):ab-12,ab,12,~:20,25,20".utf8).withUnsafeBufferPointer { WorkerWire.parse(bytes: $0) } == nil)
    }

    @Test("A JSON result's definition id is kept only for the run's definition of its pattern, its spans only when they check")
    func forgedIDs() throws {
        let registry = Self.registry()
        let story = Self.story(#"a step that passes with "é""#)
        let match = try #require(registry.matches(story.steps[0]).winner)
        var info = MatchInfo(match)
        #expect(info.spans.bounds == [25, 27])
        #expect(WorkerClaims.checked(info, text: story.steps[0].text, registry: registry) == info)
        #expect(WorkerClaims.checked(info, text: story.steps[0].text, registry: registry).definitionID == match.definition.id)
        // Another definition's id: dropped; its spans then checked as flat groups (they still fit).
        info.definitionID = (match.definition.id + 1) % registry.definitions.count
        #expect(WorkerClaims.checked(info, text: story.steps[0].text, registry: registry).definitionID == nil)
        info.definitionID = registry.definitions.count + 5
        #expect(WorkerClaims.checked(info, text: story.steps[0].text, registry: registry).definitionID == nil)
        // Spans that name other text: dropped.
        info.spans = GroupSpans([24..<26])
        #expect(WorkerClaims.checked(info, text: story.steps[0].text, registry: registry).spans.isEmpty)
    }
}
