import Foundation

/// The runs of several shards as one run: what ``MergeCommand`` replays
/// into every report.
struct MergedRun {
    /// One shard's run, read from its Messages stream or Cucumber JSON.
    struct Shard {
        var results: [StoryResult] = []
        /// Its run hooks: every one from a Messages stream, the failed
        /// ones from Cucumber JSON.
        var runHooks: [HookResult] = []
        var rejectedFiles: [RejectedFile] = []
        /// Every step definition it names, and those its stories used
        /// (none from Cucumber JSON, which does not say).
        var definitions: [UnusedDefinition] = []
        var used: Set<MatchInfo.Key> = []
        var note = RunOutcomeNote()
        var isStrict = false
        /// Its story files in the order it ran them.
        var files: [String] = []
        /// Whether it records run hooks that passed (a Messages stream does).
        var recordsPassedRunHooks = false

        /// A shard from its Messages stream. Its strictness is read from
        /// its verdict: a run that failed with nothing but undefined or
        /// pending stories was `--strict`.
        init(_ run: MessagesRun) {
            results = run.results
            runHooks = run.runHooks
            rejectedFiles = run.rejectedFiles
            definitions = run.definitions
            used = run.used
            note = run.note
            // Those the note lists, and those the stream gives as test
            // cases or pickles that never started (by file and line: a
            // pickle's place has a column, the note's not).
            let listed = Set(note.notRunStories.map(\.fileAndLine))
            let more = run.notRunStories.filter { !listed.contains($0.fileAndLine) }
            note.notRunStories += more
            note.notRun += more.count
            files = run.files
            recordsPassedRunHooks = true
            var summary = RunSummary()
            for result in results { summary.add(result) }
            summary.failedHooks = runHooks.filter { $0.status == .failed }.count + note.otherFailures
            summary.notRun = note.notRun
            summary.wasInterrupted = note.wasInterrupted
            isStrict = !run.success && rejectedFiles.isEmpty && !summary.hasFailures(strict: false) && summary.hasFailures(strict: true)
        }

        /// A shard from its Cucumber JSON.
        init(_ run: CucumberJSONDecoder.Run) {
            results = run.results
            runHooks = run.runHooks
            rejectedFiles = run.rejectedFiles
            note = RunOutcomeNote(otherFailures: run.otherFailures, notRun: run.notRun)
            isStrict = run.isStrict
            var seen: Set<String> = []
            files = results.map(\.story.location.file).filter { seen.insert($0).inserted }
        }
    }

    var results: [StoryResult] = []
    var runHooks: [HookResult] = []
    var rejectedFiles: [RejectedFile] = []
    var unusedDefinitions: [UnusedDefinition] = []
    var note = RunOutcomeNote()
    var isStrict = false

    /// The shards as one run: stories in the order one run takes them (its
    /// files in the order the shards ran them, each file's stories by
    /// line); each run hook once (failed if it failed in any shard); each
    /// rejected file once; the definitions no shard used.
    init(_ shards: [Shard]) {
        let order = Self.fileOrder(shards.map(\.files))
        var rank: [String: Int] = [:]
        for (index, file) in order.enumerated() { rank[file] = index }
        results = shards.flatMap(\.results).enumerated().sorted { a, b in
            let left = (rank[a.element.story.location.file] ?? Int.max, a.element.story.location.line, a.offset)
            let right = (rank[b.element.story.location.file] ?? Int.max, b.element.story.location.line, b.offset)
            return left < right
        }.map(\.element)
        runHooks = Self.runHooks(of: shards)
        for file in shards.flatMap(\.rejectedFiles) where !rejectedFiles.contains(where: { $0.path == file.path }) {
            rejectedFiles.append(file)
        }
        let used = shards.reduce(into: Set<MatchInfo.Key>()) { $0.formUnion($1.used) }
        var seen: Set<MatchInfo.Key> = []
        for definition in shards.flatMap(\.definitions) {
            let key = MatchInfo.Key(pattern: definition.pattern, location: definition.location)
            if !used.contains(key), seen.insert(key).inserted { unusedDefinitions.append(definition) }
        }
        for shard in shards {
            note.otherFailures += shard.note.otherFailures
            note.notRun += shard.note.notRun
            note.wasInterrupted = note.wasInterrupted || shard.note.wasInterrupted
            note.notRunStories += shard.note.notRunStories
        }
        // The stories not run in the run's order: file by file as first
        // named, each file's stories by line.
        let files = note.notRunStories.reduce(into: [String]()) { if !$0.contains($1.file) { $0.append($1.file) } }
        note.notRunStories.sort { (files.firstIndex(of: $0.file)!, $0.line) < (files.firstIndex(of: $1.file)!, $1.line) }
        isStrict = shards.contains(where: \.isStrict)
    }

    /// Each run hook once: failed if it failed in any shard; passed if it
    /// passed in every shard that records passed hooks (an interrupted
    /// shard runs no after-run hook, as an interrupted run does not).
    static func runHooks(of shards: [Shard]) -> [HookResult] {
        var hooks: [HookResult] = []
        var passes: [Int] = []
        for hook in shards.flatMap(\.runHooks) {
            if let index = hooks.firstIndex(where: { $0.kind == hook.kind && $0.location == hook.location }) {
                if hooks[index].status == .passed, hook.status != .passed { hooks[index] = hook }
                if hook.status == .passed { passes[index] += 1 }
            } else {
                hooks.append(hook)
                passes.append(hook.status == .passed ? 1 : 0)
            }
        }
        let recording = shards.filter(\.recordsPassedRunHooks).count
        return hooks.indices.filter { hooks[$0].status != .passed || passes[$0] >= recording }.map { hooks[$0] }
    }

    /// The shards' file orders as one: a file a shard names first goes
    /// before the next file that shard ran that is placed already, or last.
    static func fileOrder(_ orders: [[String]]) -> [String] {
        var merged: [String] = []
        var placed: Set<String> = []
        for order in orders {
            for (index, file) in order.enumerated() where !placed.contains(file) {
                let next = order[(index + 1)...].first { placed.contains($0) }
                if let next, let position = merged.firstIndex(of: next) {
                    merged.insert(file, at: position)
                } else {
                    merged.append(file)
                }
                placed.insert(file)
            }
        }
        return merged
    }

    /// Emits the events of this run, as one run would have, and returns its totals.
    func replay(emit: (RunEvent) -> Void) -> RunSummary {
        var summary = RunSummary()
        summary.failedHooks = note.otherFailures
        summary.notRun = note.notRun
        summary.wasInterrupted = note.wasInterrupted
        summary.notRunStories = note.notRunStories
        summary.unusedDefinitions = unusedDefinitions
        // Stories not run after a before-run hook failed are the hook's
        // failure, which is said below, as the run said it.
        let hookStoppedRun = self.runHooks.contains { $0.kind == Hook.Kind.beforeRun.rawValue && $0.status == .failed }
        if let what = RunOutcomeNote.describe(
            failures: note.otherFailures, notRun: hookStoppedRun && !note.wasInterrupted ? 0 : note.notRun)
        {
            emit(.diagnostic(Diagnostic(at: nil, problem: "the merged runs failed: \(what) (see each run's output)")))
        }
        /// A run hook, as the run said it.
        func hook(_ hook: HookResult) {
            if hook.status == .failed {
                summary.failedHooks += 1
                emit(.diagnostic(Diagnostic(at: hook.location, problem: hook.error?.message ?? "the \(hook.kind) hook failed")))
            }
            emit(.runHookFinished(hook))
        }
        // In a run's order: the before-run hooks run before story files are read.
        runHooks.filter { !$0.kind.hasPrefix("after") }.forEach(hook)
        for rejected in rejectedFiles {
            for problem in rejected.problems { emit(.diagnostic(problem)) }
            emit(.storyFileRejected(rejected))
            let file = SourceLocation.relativePath(rejected.path)
            if !rejected.path.isEmpty, !summary.rejectedFiles.contains(file) { summary.rejectedFiles.append(file) }
        }
        emit(.runStarted(fileCount: Set(results.map(\.story.location.file)).count))
        for result in results {
            emit(.storyStarted(result.story))
            for step in result.steps { emit(.stepFinished(step)) }
            summary.add(result)
            summary.duration &+= result.duration
            emit(.storyFinished(result))
        }
        runHooks.filter { $0.kind.hasPrefix("after") }.forEach(hook)
        emit(.runFinished(summary))
        return summary
    }
}
