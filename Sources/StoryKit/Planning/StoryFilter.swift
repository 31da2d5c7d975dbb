import Foundation

/// Which stories a run includes: by `PATH:LINE`, by name, by tags and by
/// shard. A story is run when it passes every filter that is set.
struct StoryFilter: Sendable {
    /// Lines asked for with `PATH:LINE`, by path; a file not in it is run whole.
    var lines: [String: Set<Int>] = [:]
    /// `--name REGEX`, each given: a story runs when any of the regexes is
    /// found in its name.
    var namePatterns: [String] {
        didSet { nameRegexes = namePatterns.compactMap { try? NameRegex($0) } }
    }
    /// `namePatterns`, compiled once.
    private var nameRegexes: [NameRegex]
    /// `--tags EXPRESSION`, all of them, as a predicate on a story's tags.
    var tags: (@Sendable ([String]) -> Bool)?
    /// `--shard I/N`: run the I-th of N shards (I counted from 1).
    var shard: Shard?
    /// With `--timings`: the stories of this shard, by
    /// ``ShardBalancer/key(file:line:)``, in place of the hash split.
    var shardMembers: Set<String>?

    init(
        lines: [String: Set<Int>] = [:], namePatterns: [String] = [],
        tags: (@Sendable ([String]) -> Bool)? = nil, shard: Shard? = nil
    ) {
        self.lines = lines
        self.namePatterns = namePatterns
        nameRegexes = namePatterns.compactMap { try? NameRegex($0) }
        self.tags = tags
        self.shard = shard
    }

    /// Whether the story is run by `--name`, `--tags` and `--shard` (lines
    /// are chosen per file, by ``LineSelection``).
    func includes(_ story: Story) -> Bool {
        if !nameRegexes.isEmpty, !nameRegexes.contains(where: { $0.hasMatch(in: story.name) }) { return false }
        if let tags, !tags(story.tags) { return false }
        if let shardMembers {
            if !shardMembers.contains(ShardBalancer.key(file: story.location.file, line: story.location.line)) { return false }
        } else if let shard, Self.shard(of: story, count: shard.count) != shard.index - 1 {
            return false
        }
        return true
    }

    /// Whether no filter is set: the run chooses every story of its files.
    var choosesAll: Bool { lines.isEmpty && namePatterns.isEmpty && tags == nil && shard == nil }

    /// Whether `--name` or `--tags` is set: a run they leave empty says so.
    var choosesByNameOrTags: Bool { !namePatterns.isEmpty || tags != nil }

    /// The shard a story belongs to: a hash of its file and name, so adding
    /// files or lines elsewhere moves no story to another shard. The file is
    /// taken relative to the current folder, so `stories`, `./stories` and
    /// an absolute path give the same split.
    static func shard(of story: Story, count: Int) -> Int {
        Int(hash(of: story) % UInt64(count))
    }

    /// A stable hash of a story's file and name (FNV-1a).
    static func hash(of story: Story) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in StoryPath.canonical(story.location.file).utf8 + [0] + story.name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return hash
    }

    /// Splits `PATH:LINE[:LINE…]` arguments into paths and the lines asked
    /// for; a path also named without lines is run whole, as in Cucumber.
    /// `PATH:abc` and `PATH:` (an existing file, then not a number) are
    /// problems.
    static func splitLines(_ arguments: [String]) -> (paths: [String], lines: [String: Set<Int>], problems: [Diagnostic]) {
        var paths: [String] = []
        var lines: [String: Set<Int>] = [:]
        var whole: Set<String> = []
        var problems: [Diagnostic] = []
        for argument in arguments {
            var parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            var numbers: [Int] = []
            while parts.count > 1, let number = Int(parts.last!) {
                numbers.insert(number, at: 0)
                parts.removeLast()
            }
            if parts.count > 1, !StoryPath.exists(parts.joined(separator: ":")),
                StoryPath.exists(parts.dropLast().joined(separator: ":"))
            {
                let path = parts.dropLast().joined(separator: ":")
                problems.append(Diagnostic(
                    at: nil, problem: "\(argument): the line after \"\(path):\" must be a number, not \"\(parts.last!)\"",
                    help: "write \(path):12 to run the story at line 12, or \(path) to run the whole file"))
                continue
            }
            let path = parts.joined(separator: ":")
            // By bytes: two spellings of one text in other Unicode forms are
            // two files (which the loader then reports).
            if !paths.contains(where: { $0.utf8.elementsEqual(path.utf8) }) { paths.append(path) }
            if numbers.isEmpty { whole.insert(path) } else { lines[path, default: []].formUnion(numbers) }
        }
        for path in whole { lines[path] = nil }
        return (paths, lines, problems)
    }
}

/// One of N stable parts of a suite (`--shard I/N`), for CI matrices.
struct Shard: Equatable, Sendable {
    /// Which part, counted from 1.
    var index: Int
    /// How many parts.
    var count: Int
}
