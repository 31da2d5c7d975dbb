import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct ShardBalancerTests {
    /// 16 stories in one file, as a suite names them.
    static let stories: [Story] = (1...16).map {
        Story(name: "Story \($0)", location: SourceLocation(file: "stories/suite.stories", line: $0 * 5), steps: [])
    }

    static func items(_ durations: [UInt64?]) -> [ShardBalancer.Item] {
        zip(stories, durations).map { story, duration in
            ShardBalancer.Item(
                key: ShardBalancer.key(file: story.location.file, line: story.location.line), hash: StoryFilter.hash(of: story),
                duration: duration)
        }
    }

    static func totals(_ items: [ShardBalancer.Item], _ parts: [String: Int], count: Int) -> (counts: [Int], times: [UInt64]) {
        var counts = Array(repeating: 0, count: count)
        var times = Array(repeating: UInt64(0), count: count)
        for item in items {
            counts[parts[item.key]!] += 1
            times[parts[item.key]!] += item.duration ?? 0
        }
        return (counts, times)
    }

    @Test("Stories the timings do not have count the same: 16 stories split 6/5/5, 4 shards 4/4/4/4")
    func evenByCount() {
        let items = Self.items(Array(repeating: nil, count: 16))
        #expect(Self.totals(items, ShardBalancer.assign(items, count: 3), count: 3).counts.sorted() == [5, 5, 6])
        #expect(Self.totals(items, ShardBalancer.assign(items, count: 4), count: 4).counts == [4, 4, 4, 4])
    }

    @Test("Timings: the longest first, each to the lightest shard; no shard is longer than the ideal plus the longest story")
    func balancedByTime() {
        let durations: [UInt64] = [90, 10, 10, 10, 40, 40, 5, 5, 5, 5, 30, 30, 20, 20, 60, 1]
        let items = Self.items(durations)
        let parts = ShardBalancer.assign(items, count: 3)
        let times = Self.totals(items, parts, count: 3).times
        #expect(times.reduce(0, +) == durations.reduce(0, +))
        let ideal = durations.reduce(0, +) / 3
        #expect(times.max()! - times.min()! <= durations.max()!)
        #expect(times.max()! <= ideal + 10, "\(times)")
    }

    @Test("The split is the same whatever order the stories come in, and ties go by the stable hash")
    func stable() {
        let items = Self.items([7, 7, 7, 7, nil, nil, 3, 3, 3, 3, 3, 3, 7, 7, nil, nil])
        let once = ShardBalancer.assign(items, count: 4)
        #expect(ShardBalancer.assign(items.reversed(), count: 4) == once)
        #expect(ShardBalancer.assign(items.shuffled(), count: 4) == once)
        #expect(Set(once.values) == [0, 1, 2, 3])
    }

    @Test("A story without a timing counts the mean of the others")
    func unknownStories() {
        let items = Self.items([100, 100, nil, nil] + Array(repeating: UInt64?.none, count: 12))
        let parts = ShardBalancer.assign(Array(items.prefix(4)), count: 2)
        // Two known 100s and two unknown (mean 100): two a shard.
        #expect(parts.values.filter { $0 == 0 }.count == 2)
    }
}
