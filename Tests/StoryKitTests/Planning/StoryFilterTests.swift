import Testing
@testable import StoryKit

@Suite struct StoryFilterTests {
    static func story(_ name: String, file: String = "a.stories", line: Int = 1, steps: Int = 2) -> Story {
        Story(name: name, location: .init(file: file, line: line),
              steps: (1...steps).map { Step(keyword: "Given", kind: .context, text: "x", location: .init(file: file, line: line + $0)) })
    }

    @Test("PATH:LINE arguments split into paths and lines")
    func splitLines() {
        let (paths, lines) = StoryFilter.splitLines(["a.stories:3", "a.stories:9:12", "dir", "C:x.stories"])
        #expect(paths == ["a.stories", "dir", "C:x.stories"])
        #expect(lines == ["a.stories": [3, 9, 12]])
    }

    @Test("A line anywhere in a story selects it")
    func lineSelects() {
        let filter = StoryFilter(lines: ["a.stories": [3]])
        #expect(filter.includes(Self.story("one", line: 1)))
        #expect(!filter.includes(Self.story("two", line: 5)))
        #expect(filter.includes(Self.story("other file", file: "b.stories", line: 5)))
    }

    @Test("Shards are disjoint, cover every story and do not depend on lines")
    func shards() {
        let stories = (0..<200).map { Self.story("story \($0)", file: "f\($0 % 7).stories", line: $0) }
        var seen: [String: Int] = [:]
        for index in 1...4 {
            let filter = StoryFilter(shard: Shard(index: index, count: 4))
            for story in stories where filter.includes(story) { seen[story.id, default: 0] += 1 }
        }
        #expect(seen.count == 200)
        #expect(seen.values.allSatisfy { $0 == 1 })
        let moved = Self.story("story 3", file: "f3.stories", line: 999)
        #expect(StoryFilter.shard(of: moved, count: 4) == StoryFilter.shard(of: stories[3], count: 4))
    }

    @Test("A random order is the same for the same seed")
    func randomOrder() {
        let stories = (0..<20).map { Self.story("s\($0)") }
        let first = StoryOrder.random(seed: 42).apply(to: stories).map(\.name)
        #expect(first == StoryOrder.random(seed: 42).apply(to: stories).map(\.name))
        #expect(first != stories.map(\.name))
        #expect(Set(first) == Set(stories.map(\.name)))
        #expect(StoryOrder("random:9") == .random(seed: 9))
        #expect(StoryOrder("sideways") == nil)
    }

    @Test("Run options are read, and bad values are usage errors")
    func options() throws {
        let options = try Options(arguments: ["--shard", "2/3", "--retry", "2", "--order", "random:5", "--fail-fast", "--step-timeout", "1.5", "--name", "x", "p"])
        #expect(options.shard == Shard(index: 2, count: 3))
        #expect(options.retries == 2 && options.order == .random(seed: 5) && options.isFailFast && options.stepTimeout == 1.5)
        for bad in [["--shard", "3/2", "p"], ["--shard", "x", "p"], ["--retry", "-1", "p"], ["--order", "up", "p"], ["--step-timeout", "0", "p"]] {
            #expect(throws: Diagnostic.self) { try Options(arguments: bad) }
        }
    }
}
