/// Splits stories into `--shard` parts of about equal duration, by the
/// durations of an earlier run (`--timings FILE`).
///
/// Greedy longest-first bin packing: the stories sorted by duration,
/// longest first, each go to the part with the least time so far. A story
/// the earlier run did not have counts the mean duration of those it had.
/// Ties (equal durations, equal totals) are broken by the story's stable
/// hash, then by its place, then by the lower part: every machine of a CI
/// matrix computes the same split from the same files and timings.
enum ShardBalancer {
    /// A story to place: its identity, its stable hash and its duration in
    /// the earlier run (nil when that run did not have it).
    struct Item: Equatable {
        var key: String
        var hash: UInt64
        var duration: UInt64?
    }

    /// The part (0 ..< count) of each story, by key.
    static func assign(_ items: [Item], count: Int) -> [String: Int] {
        let known = items.compactMap(\.duration)
        let mean = known.isEmpty ? 1 : max(1, known.reduce(0, &+) / UInt64(known.count))
        let ordered = items.map { ($0, $0.duration ?? mean) }.sorted { left, right in
            if left.1 != right.1 { return left.1 > right.1 }
            if left.0.hash != right.0.hash { return left.0.hash < right.0.hash }
            return left.0.key < right.0.key
        }
        var totals = Array(repeating: UInt64(0), count: max(1, count))
        var parts: [String: Int] = [:]
        for (item, duration) in ordered {
            // The first part with the least time: ties go to the lower part.
            var lightest = 0
            for index in totals.indices where totals[index] < totals[lightest] { lightest = index }
            totals[lightest] &+= duration
            parts[item.key] = lightest
        }
        return parts
    }

    /// The key a story is known by in a split and in timings: its file
    /// (relative to the current folder) and line.
    static func key(file: String, line: Int) -> String {
        StoryPath.canonical(file) + ":" + String(line)
    }
}
