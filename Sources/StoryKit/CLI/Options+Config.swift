import Foundation

/// The options a run takes from outside its command line: a config file
/// (`storyrun.json` or `--config FILE`) with its profiles, and the shard
/// a CI's parallel jobs name in the environment (``ShardVariables``).
extension Options {
    /// Parses the command line over the config file and the environment:
    /// the config's defaults first, then each `--profile` in order, then the
    /// command line, which wins.
    /// - Parameters:
    ///   - arguments: The arguments after the executable's name.
    ///   - directory: Where to look for `storyrun.json`.
    ///   - environment: The environment (a CI's shard variables, ``ShardVariables``);
    ///     nil for the process's own.
    /// - Throws: A ``Diagnostic``; for the config file, at its file:line.
    static func load(
        arguments: [String], directory: String = FileManager.default.currentDirectoryPath,
        environment: [String: String]? = nil
    ) throws(Diagnostic) -> Options {
        var options = Options()
        guard let remaining = try options.parseCommand(arguments) else { return options }
        var commandLine = options
        try commandLine.apply(remaining)
        // A worker takes every option from its parent's arguments.
        guard [.run, .check].contains(commandLine.command) else {
            try commandLine.validate()
            return commandLine
        }
        let configPath: String
        if let given = commandLine.configPath {
            configPath = given
        } else {
            let candidate = (directory as NSString).appendingPathComponent(ConfigFile.defaultName)
            guard FileManager.default.fileExists(atPath: candidate) else {
                if let profile = commandLine.profiles.first {
                    throw Diagnostic(
                        at: nil, problem: "--profile \(profile): there is no \(ConfigFile.defaultName) in the current folder",
                        help: "run from the folder that has it, or name it with --config FILE")
                }
                try commandLine.fillShard(from: environment)
                try commandLine.validate()
                return commandLine
            }
            // Named as the user would: storyrun.json in the current folder.
            configPath = directory == FileManager.default.currentDirectoryPath ? ConfigFile.defaultName : candidate
        }
        let config = try ConfigFile.read(at: configPath)
        var layered = options
        for entry in try config.entries(profiles: commandLine.profiles) {
            // A later layer's "tags" ("name") replaces the earlier one's;
            // a list in one layer is repeated --tags (--name).
            if entry.key == "tags" { layered.tagExpressions = [] }
            if entry.key == "name" { layered.namePatterns = [] }
            do {
                try layered.apply(config.arguments(for: entry)[...])
            } catch {
                var located = error
                located.location = entry.location
                located.sourceLine = entry.sourceLine
                located.problem = "\"\(entry.key)\": \(error.problem)"
                throw located
            }
        }
        try layered.apply(remaining, overridesEarlier: true)
        layered.configPath = configPath
        try layered.fillShard(from: environment)
        try layered.validate()
        return layered
    }

    /// Reads `--shard I/N`.
    static func shard(_ value: String) throws(Diagnostic) -> Shard {
        let parts = value.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        guard parts.count == 2, parts[1] > 0, (1...parts[1]).contains(parts[0]) else {
            throw Diagnostic(at: nil, problem: "--shard \(value) is not I/N with 1 ≤ I ≤ N", help: "write --shard 2/4 for the second of four shards")
        }
        return Shard(index: parts[0], count: parts[1])
    }

    /// Reads `-D KEY=VALUE`.
    static func parameter(_ text: String) throws(Diagnostic) -> (key: String, value: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex, !text.hasPrefix("-") else {
            throw Diagnostic(
                at: nil, problem: "-D \(text) is not KEY=VALUE",
                help: "write -D base-url=http://localhost:8080 (read it as StoryRun.parameters[\"base-url\"])")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
}
