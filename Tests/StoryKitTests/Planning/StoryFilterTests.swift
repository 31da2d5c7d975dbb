import Foundation
import StoryrunSteps
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct StoryFilterTests {
    static func story(_ name: String, file: String = "a.stories", line: Int = 1, steps: Int = 2) -> Story {
        Story(name: name, location: .init(file: file, line: line),
              steps: (1...steps).map { Step(keyword: "Given", kind: .context, text: "x", location: .init(file: file, line: line + $0)) })
    }

    @Test("PATH:LINE arguments split into paths and lines; a path also named bare runs whole")
    func splitLines() {
        let (paths, lines, problems) = StoryFilter.splitLines(["a.stories:3", "a.stories:9:12", "dir", "C:x.stories", "b.stories:5", "b.stories"])
        #expect(paths == ["a.stories", "dir", "C:x.stories", "b.stories"])
        #expect(lines == ["a.stories": [3, 9, 12]])
        #expect(problems.isEmpty)
    }

    @Test("PATH:abc and PATH: of an existing file say the line must be a number")
    func lineNotANumber() {
        let file = Golden.fixture("selection/lines.feature")
        for bad in [file + ":abc", file + ":"] {
            let (_, _, problems) = StoryFilter.splitLines([bad])
            #expect(problems.count == 1)
            #expect(problems.first?.problem.contains("must be a number") == true)
        }
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

    @Test("A shard does not depend on how the path is spelled")
    func shardSpelling() {
        let current = FileManager.default.currentDirectoryPath
        let spellings = ["stories/a.stories", "./stories/a.stories", "stories//./a.stories", current + "/stories/a.stories", "x/../stories/a.stories"]
        for count in [2, 3, 5, 7] {
            let shards = Set(spellings.map { StoryFilter.shard(of: Self.story("s", file: $0), count: count) })
            #expect(shards.count == 1)
        }
        #expect(StoryPath.canonical(current + "/stories/a.stories") == "stories/a.stories")
    }

    @Test("--shard takes I/N only: 1//3, 0/3 and 4/3 are usage errors")
    func shardSyntax() {
        for bad in ["1//3", "/1/3", "1/3/", "0/3", "4/3", "1/0", "a/b", "1/3/5"] {
            #expect(throws: Diagnostic.self) { try Options(arguments: ["--shard", bad, "p"]) }
        }
        #expect((try? Options(arguments: ["--shard", "3/3", "p"]))?.shard == Shard(index: 3, count: 3))
    }

    @Test("An invalid --name regex is a usage error with a caret under the place")
    func badName() async {
        #expect(NameRegex.errorOffset(in: "price (EUR") == 10)
        #expect(NameRegex.errorOffset(in: "*apples") == 0)
        #expect(NameRegex.errorOffset(in: "a[z-a]") == 4)
        var lines: [String] = []
        let status = await StoryRun.run(
            arguments: ["--name", "price (EUR", Golden.fixture("selection/lines.feature")], steps: StoryrunSteps.fixtures,
            output: { lines.append($0) })
        #expect(status == .inputError)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("--name \"price (EUR\" is not a regular expression"))
        #expect(text.contains("    --name price (EUR\n                     ^"))
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
