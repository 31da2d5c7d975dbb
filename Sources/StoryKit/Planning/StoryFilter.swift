import Foundation

/// Which stories a run includes: by `PATH:LINE`, by name, by tags and by
/// shard. A story is run when it passes every filter that is set.
struct StoryFilter: Sendable {
    /// Lines asked for with `PATH:LINE`, by path; a file not in it is run whole.
    var lines: [String: Set<Int>] = [:]
    /// `--name REGEX`: a story runs when the regex is found in its name.
    var namePattern: String?
    /// `--tags EXPRESSION`, as a predicate on a story's tags.
    var tags: (@Sendable ([String]) -> Bool)?
    /// `--shard I/N`: run the I-th of N shards (I counted from 1).
    var shard: Shard?

    /// Whether the story is run.
    func includes(_ story: Story) -> Bool {
        if let wanted = lines[story.location.file] {
            let last = story.steps.last?.location.line ?? story.location.line
            let firstLine = story.location.line - story.tags.count
            guard wanted.contains(where: { $0 >= firstLine && $0 <= last }) else { return false }
        }
        if let namePattern,
            story.name.range(of: namePattern, options: [.regularExpression, .caseInsensitive]) == nil
        {
            return false
        }
        if let tags, !tags(story.tags) { return false }
        if let shard, Self.shard(of: story, count: shard.count) != shard.index - 1 { return false }
        return true
    }

    /// The shard a story belongs to: a hash of its file and name, so adding
    /// files or lines elsewhere moves no story to another shard.
    static func shard(of story: Story, count: Int) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in story.location.file.utf8 + [0] + story.name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return Int(hash % UInt64(count))
    }

    /// Splits `PATH:LINE[:LINE…]` arguments into paths and the lines asked for.
    static func splitLines(_ arguments: [String]) -> (paths: [String], lines: [String: Set<Int>]) {
        var paths: [String] = []
        var lines: [String: Set<Int>] = [:]
        for argument in arguments {
            var parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            var numbers: [Int] = []
            while parts.count > 1, let number = Int(parts.last!) {
                numbers.insert(number, at: 0)
                parts.removeLast()
            }
            let path = parts.joined(separator: ":")
            if !paths.contains(path) { paths.append(path) }
            if !numbers.isEmpty { lines[path, default: []].formUnion(numbers) }
        }
        return (paths, lines)
    }
}

/// One of N stable parts of a suite (`--shard I/N`), for CI matrices.
struct Shard: Equatable, Sendable {
    /// Which part, counted from 1.
    var index: Int
    /// How many parts.
    var count: Int
}
