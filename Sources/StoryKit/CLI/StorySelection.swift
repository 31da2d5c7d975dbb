import Foundation

/// The stories a run asks for: the files under its paths and the filter its
/// options make (`PATH:LINE`, `--name`, `--tags`, `--shard`).
struct StorySelection {
    /// The story files, in the order they run.
    var files: [String]
    /// A problem for each path that does not exist.
    var pathDiagnostics: [Diagnostic]
    /// Which stories of the files run.
    var filter: StoryFilter
    /// The `--shard` a rerun file set aside: the rerun runs every story the
    /// file names (the shard that wrote it listed only its own).
    var shardSetAside: Shard?

    /// Reads the options; fails with the diagnostic for a bad `--tags`
    /// expression, a bad `--name` regex or a `PATH:LINE` whose line is not
    /// a number.
    static func make(_ options: Options) -> Result<StorySelection, Diagnostic> {
        var (paths, lines, problems) = StoryFilter.splitLines(options.paths)
        if let problem = problems.first { return .failure(problem) }
        // `/dev/stdin` (`storyrun /dev/stdin < a.stories`) and `/dev/fd/N`
        // name a file through this process's descriptors: a worker, which
        // reads a story's file again, has other descriptors (its standard
        // input is /dev/null), and found no story in it: every story
        // failed. The file they stand for, by its own path, reads the same
        // in every process.
        for (index, path) in paths.enumerated() {
            guard let real = standingFor(path) else { continue }
            paths[index] = real
            if let chosen = lines.removeValue(forKey: path) { lines[real, default: []].formUnion(chosen) }
        }
        for pattern in options.namePatterns {
            do { _ = try NameRegex(pattern) } catch { return .failure(error) }
        }
        let files: [String], pathDiagnostics: [Diagnostic]
        (files, lines, pathDiagnostics) = StoryLoader.files(at: paths, lines: lines)
        if let problem = reportOverwritingStories(options.reports, files: files, config: options.configPath) { return .failure(problem) }
        var filter = StoryFilter(lines: lines, namePatterns: options.namePatterns, shard: options.shard)
        var predicates: [@Sendable ([String]) -> Bool] = []
        for expression in options.tagExpressions {
            // Every tag is written with its @: a name without one matches
            // no story, and the run would pass having run nothing.
            if let bare = (try? TagExpression(expression))?.names.first(where: { !$0.hasPrefix("@") }) {
                return .failure(Diagnostic(
                    at: nil, problem: "--tags \"\(expression)\" names \"\(bare)\", which is not a tag: tags start with @",
                    help: "write @\(bare)"))
            }
            do {
                predicates.append(try TagFilter.predicate(expression))
            } catch {
                return .failure(Diagnostic(
                    at: nil, problem: "--tags \"\(expression)\" is not a tag expression: \(error)",
                    help: "write e.g. --tags \"@smoke and not (@wip or @slow)\""))
            }
        }
        // Repeated --tags: a story must match every expression.
        if predicates.count == 1 {
            filter.tags = predicates[0]
        } else if !predicates.isEmpty {
            let all = predicates
            filter.tags = { tags in all.allSatisfy { $0(tags) } }
        }
        if let timings = options.timingsPath, options.shard == nil {
            return .failure(Diagnostic(
                at: nil, problem: "--timings \(timings) balances shards, and no --shard is given",
                help: "write --shard 1/4 --timings \(timings)"))
        }
        // A rerun file is the list of one run's failures: a shard's run
        // lists only that shard's stories. Split again, by the hash or by
        // timings over the few stories it names, its stories would land in
        // other shards: a shard's rerun could run nothing and pass.
        if !options.rerunFiles.isEmpty, let shard = options.shard {
            filter.shard = nil
            return .success(StorySelection(files: files, pathDiagnostics: pathDiagnostics, filter: filter, shardSetAside: shard))
        }
        if let timings = options.timingsPath, let shard = options.shard {
            if let problem = balance(&filter, files: files, shard: shard, timingsPath: timings) { return .failure(problem) }
        }
        return .success(StorySelection(files: files, pathDiagnostics: pathDiagnostics, filter: filter))
    }

    /// The problem when a report would replace one of the story files the
    /// run reads (`--junit login.feature`, or a link to it) or its config
    /// file (`--json storyrun.json`): the run would destroy its own input.
    /// Only a report file that exists can be one.
    static func reportOverwritingStories(_ reports: [ReportRequest], files: [String], config: String? = nil) -> Diagnostic? {
        // The first report at each existing file.
        var existing: [String: (report: ReportRequest, path: String)] = [:]
        for report in reports {
            guard let path = report.path, case .replacing(let target)? = try? ReportDestination(path: path),
                let identity = FileIdentity.of(target), existing[identity] == nil
            else { continue }
            existing[identity] = (report, path)
        }
        guard !existing.isEmpty else { return nil }
        for (index, file) in (files + [config].compactMap { $0 }).enumerated() {
            guard let identity = FileIdentity.of(file), let same = existing[identity] else { continue }
            let spelled = same.path == file ? "" : " (\(same.path) and \(file) are the same file)"
            let kind = index < files.count ? "story file" : "config file"
            return Diagnostic(
                at: nil,
                problem: "--\(same.report.format.rawValue) \(same.path) would replace the \(kind) \(file)\(spelled)",
                help: "write the report elsewhere; a report never replaces a file the run reads")
        }
        return nil
    }

    /// The regular file that `/dev/stdin`, `/dev/fd/N` or `/proc/self/fd/N`
    /// stands for in this process, by its path; nil for any other path, and
    /// for a descriptor that is not a regular file with a path (a pipe, a
    /// deleted file).
    static func standingFor(_ path: String) -> String? {
        guard path == "/dev/stdin" || path.hasPrefix("/dev/fd/") || path.hasPrefix("/proc/self/fd/"),
            let resolved = realpath(path, nil)
        else { return nil }
        defer { free(resolved) }
        let real = String(cString: resolved)
        var status = stat()
        guard !real.hasPrefix("/proc/"), !real.hasPrefix("/dev/"), stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return real
    }

    /// The line a run prints when a rerun file set `--shard` aside.
    static func shardNotSplittingRerun(_ options: Options, shard: Shard) -> String {
        let source = options.shardSource.map { " (from \($0))" } ?? ""
        return "storyrun: --shard \(shard.index)/\(shard.count)\(source) does not split a rerun: running every story \(rerunFileNames(options)) names"
    }

    /// The problem when a run of rerun files that name stories ran none:
    /// its filters (`--tags`, `--name`) left out every story the rerun
    /// names, and a pass would hide the failures the file lists.
    static func rerunRanNothing(_ options: Options) -> Diagnostic {
        let filters = chosenBy(options)
        return Diagnostic(
            at: nil,
            problem: "\(rerunFileNames(options)) names stories to run again, and this run ran none of them\(filters.isEmpty ? "" : " (\(filters) left them all out)")",
            help: "run \(Options.executableName) \(options.rerunFiles.map { "@" + $0 }.joined(separator: " ")) without the options that leave its stories out")
    }

    /// What a run of rerun files says when `--name` or `--tags` left out
    /// some of the stories they name (a failure of the run before, dropped
    /// in silence, would pass), and whether it left them all out (then the
    /// run fails: see ``RunVerdict``).
    static func rerunLeftOut(_ options: Options, leftOut: [SourceLocation]) -> (line: String, isAll: Bool)? {
        guard !options.rerunFiles.isEmpty, !leftOut.isEmpty,
            !options.namePatterns.isEmpty || !options.tagExpressions.isEmpty
        else { return nil }
        let named = StoryFilter.splitLines(options.rerunEntries).lines
        let count = named.values.reduce(0) { $0 + $1.count }
        let dropped = leftOut.filter { named[$0.file]?.contains($0.line) == true }.count
        guard dropped > 0 else { return nil }
        let isAll = dropped >= count
        let line = "storyrun: \(isAll ? "error" : "warning"): \(chosenBy(options)) left out \(dropped) of the \(count) "
            + "stor\(count == 1 ? "y" : "ies") \(rerunFileNames(options)) names to run again; \(dropped == 1 ? "it" : "they") did not run"
        return (line, isAll)
    }

    /// The `--name` and `--tags` a run chose by, as written: `--name "a"
    /// or --name "b"`, `--tags "@a" and --tags "@b"`.
    static func chosenBy(_ options: Options) -> String {
        let names = options.namePatterns.map { "--name \"\($0)\"" }.joined(separator: " or ")
        let tags = options.tagExpressions.map { "--tags \"\($0)\"" }.joined(separator: " and ")
        let parts = [names, tags].filter { !$0.isEmpty }
        return parts.count == 2 && options.namePatterns.count > 1 ? "(\(names)) and \(tags)" : parts.joined(separator: " and ")
    }

    private static func rerunFileNames(_ options: Options) -> String {
        options.rerunFiles.map { "@" + $0 }.joined(separator: " and ")
    }

    /// The line a run prints when the files it read hold no story.
    static func noStoryIn(_ files: [String], isStrict: Bool) -> String {
        let named = files.prefix(5).joined(separator: ", ") + (files.count > 5 ? " and \(files.count - 5) more" : "")
        return "storyrun: no story in \(named): \(files.count == 1 ? "it holds" : "they hold") no Story: or Scenario:"
            + (isStrict ? " (an error under --strict)" : "")
    }

    /// The line a run prints when `--name` or `--tags` chose no story.
    static func nothingChosen(_ options: Options) -> String {
        let chosen = chosenBy(options)
        return "storyrun: no story matches \(chosen)\(options.isStrict ? " (an error under --strict)" : "")"
    }
}
