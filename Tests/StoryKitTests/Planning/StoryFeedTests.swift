import Foundation
import Testing
@testable import StoryKit

final class ColorSteps: StepDefinitions {
    required init() {}
    static func define(_ step: StepMap<ColorSteps>) {
        step.parameterType("color", regexps: ["red|blue"]) { texts in texts[0] ?? "" }
        step.expression("I have {int} items") { (_: ColorSteps, count: Int) in }
    }
}

@Suite(.timeLimit(.minutes(10))) struct StoryFeedTests {
    /// Writes story files to a fresh folder; returns their paths in order.
    static func files(_ texts: [String]) throws -> [String] {
        let folder = Scratch.folder("storyfeed")
        return try texts.enumerated().map { index, text in
            let path = "\(folder)/f\(index).stories"
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
    }

    static func stories(_ count: Int, from first: Int = 0) -> String {
        (first..<(first + count)).map { "Story: story \($0)\nGiven I have \($0) items\n" }.joined(separator: "\n")
    }

    static func drain(_ feed: StoryFeed) -> [StoryFeed.Batch] {
        var batches: [StoryFeed.Batch] = []
        while let batch = feed.next() { batches.append(batch) }
        return batches
    }

    @Test("Files come in order, in batches, matched as the registry matches them")
    func orderAndMatches() throws {
        let paths = try Self.files([Self.stories(150), Self.stories(3, from: 150)])
        let (registry, _) = StepRegistryTests.registry([RegistrySteps.self])
        let feed = StoryFeed(files: paths, filter: StoryFilter(), matchesSteps: true)
        feed.match(with: registry)
        let batches = Self.drain(feed)
        // 150 stories make batches of 64, 64 and 22; the second file one of 3.
        #expect(batches.map(\.stories.count) == [64, 64, 22, 3])
        #expect(batches.map(\.path) == [paths[0], paths[0], paths[0], paths[1]])
        let planned = batches.flatMap(\.stories)
        #expect(planned.map(\.story.name) == (0..<153).map { "story \($0)" })
        for story in planned {
            let expected = story.story.steps.map { registry.matches($0).matches.map(\.definition.id) }
            #expect(story.matches?.map { $0.matches.map(\.definition.id) } == expected)
        }
    }

    @Test("With parameter types of the user's, matching is left to the runner's thread")
    func userConversionsStayWithTheRunner() throws {
        let paths = try Self.files([Self.stories(3)])
        let (registry, diagnostics) = StepRegistryTests.registry([ColorSteps.self])
        #expect(diagnostics.isEmpty)
        #expect(registry.matchingRunsUserCode)
        #expect(!StepRegistryTests.registry([RegistrySteps.self]).0.matchingRunsUserCode)
        let feed = StoryFeed(files: paths, filter: StoryFilter(), matchesSteps: true)
        feed.match(with: registry)
        let stories = Self.drain(feed).flatMap(\.stories)
        #expect(stories.count == 3)
        #expect(stories.allSatisfy { $0.matches == nil })
    }

    @Test("A file's problems come with its first batch, and its good stories still come")
    func diagnosticsFirst() throws {
        let broken = Self.stories(70) + "\nStory: broken\nFly to the moon\n"
        let paths = try Self.files([broken])
        let feed = StoryFeed(files: paths, filter: StoryFilter(), matchesSteps: false)
        let batches = Self.drain(feed)
        #expect(batches.count == 2)
        #expect(batches[0].diagnostics.count == 1)
        #expect(batches[0].diagnostics.first?.location?.line == 212)
        #expect(batches[1].diagnostics.isEmpty)
        #expect(batches.flatMap(\.stories).count == 70)
        #expect(batches.flatMap(\.stories).allSatisfy { $0.matches == nil })
    }

    @Test("A file with no chosen story still brings its problems; the filter applies")
    func filterAndEmptyFiles() throws {
        let paths = try Self.files(["Given a step before any story\n", Self.stories(5)])
        let feed = StoryFeed(
            files: paths, filter: StoryFilter(namePatterns: ["story [13]"]), matchesSteps: false)
        let batches = Self.drain(feed)
        #expect(batches.map(\.path) == paths)
        #expect(batches[0].stories.isEmpty && batches[0].diagnostics.count == 1)
        #expect(batches[1].stories.map(\.story.name) == ["story 1", "story 3"])
    }

    @Test("A stopped feed hands out nothing more, even while it waits for the registry")
    func stop() throws {
        let paths = try Self.files([Self.stories(10), Self.stories(10)])
        let waiting = StoryFeed(files: paths, filter: StoryFilter(), matchesSteps: true)
        waiting.stop()
        #expect(waiting.next() == nil)

        let (registry, _) = StepRegistryTests.registry([RegistrySteps.self])
        let running = StoryFeed(files: paths, filter: StoryFilter(), matchesSteps: true, lookahead: 1)
        running.match(with: registry)
        #expect(running.next()?.stories.count == 10)
        running.stop()
        #expect(running.next() == nil)
    }
}
