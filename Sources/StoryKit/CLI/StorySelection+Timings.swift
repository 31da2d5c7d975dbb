import Foundation

extension StorySelection {
    /// Balances `--shard` by an earlier run's durations (`--timings FILE`):
    /// reads the Cucumber JSON, parses every story the other filters choose
    /// and keeps in `filter` the stories of this shard.
    /// - Returns: A usage diagnostic when the file cannot be read or is not
    ///   Cucumber JSON.
    static func balance(_ filter: inout StoryFilter, files: [String], shard: Shard, timingsPath: String) -> Diagnostic? {
        let data: [UInt8]
        switch RegularFile.read(at: timingsPath) {
        case .success(let bytes): data = bytes
        case .failure(.notRegular(let kind)):
            return Diagnostic(at: nil, problem: "the timings file \(timingsPath) is \(kind), not a regular file", help: "name a --json report of an earlier run")
        case .failure:
            return Diagnostic(
                at: nil, problem: "cannot read the timings file \(timingsPath)",
                help: "write it with --json \(timingsPath) in an earlier run (every shard must read the same file, or the shards overlap)")
        }
        let results: [StoryResult]
        do {
            results = try CucumberJSONDecoder.decode(Data(data), path: timingsPath)
        } catch {
            return error
        }
        var byLine: [String: UInt64] = [:]
        var byName: [String: UInt64] = [:]
        for result in results {
            let file = StoryPath.canonical(result.story.location.file)
            let key = ShardBalancer.key(file: file, line: result.story.location.line)
            byLine[key] = max(byLine[key] ?? 0, result.duration)
            byName[file + "\0" + result.story.name] = max(byName[file + "\0" + result.story.name] ?? 0, result.duration)
        }
        var others = filter
        others.shard = nil
        var items: [ShardBalancer.Item] = []
        for path in files {
            var (stories, _) = StoryLoader.parseFile(at: path)
            if let lines = filter.lines[path] { stories = LineSelection.select(lines, in: path, stories: stories).stories }
            for story in stories where others.includes(story) {
                let key = ShardBalancer.key(file: story.location.file, line: story.location.line)
                // A story whose lines moved is still known by its name.
                let duration = byLine[key] ?? byName[StoryPath.canonical(story.location.file) + "\0" + story.name]
                items.append(ShardBalancer.Item(key: key, hash: StoryFilter.hash(of: story), duration: duration))
            }
        }
        let parts = ShardBalancer.assign(items, count: shard.count)
        filter.shardMembers = Set(parts.filter { $0.value == shard.index - 1 }.keys)
        return nil
    }
}
