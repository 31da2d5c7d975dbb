#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Watch mode (`--watch`): runs the stories under the paths, then waits
/// for saves. A saved story file runs its stories at once (the ones that
/// failed last time first); a saved Swift source runs `swift build` and,
/// when that succeeds, restarts the executable with the same arguments so
/// new step definitions apply. SIGINT ends it, exit status 0: when idle at
/// once, when running once the run has stopped.
final class WatchMode {
    let options: Options
    let settings: WatchSettings
    let registry: StepRegistry
    let context: ReporterContext
    let clock: @Sendable () -> UInt64
    /// The wall-clock time, for the status line.
    let now: () -> Date
    /// Clears the terminal before a run; nothing when the output is not one.
    let clearScreen: () -> Void
    /// The step definitions registration rejected: no story runs until a
    /// rebuild restarts the executable without them.
    let rejectedDefinitions: [Diagnostic]
    private var record = WatchRecord()
    /// The story files the last run ran (canonical paths).
    private var lastRunFiles: Set<String> = []
    /// The story paths named as not regular files, each until it is one.
    private var notRegularNamed: Set<String> = []
    /// The story files of the tree when it was last looked at.
    private var knownStories: Set<String> = []

    init(
        options: Options, settings: WatchSettings, registry: StepRegistry, context: ReporterContext,
        clock: @escaping @Sendable () -> UInt64, now: @escaping () -> Date = Date.init, rejectedDefinitions: [Diagnostic] = []
    ) {
        self.rejectedDefinitions = rejectedDefinitions
        self.options = options
        self.settings = settings
        self.registry = registry
        self.context = context
        self.clock = clock
        self.now = now
        // A terminal is where partial lines go; then the screen is cleared.
        let isTerminal = context.partialOutput != nil
        clearScreen = {
            guard isTerminal else { return }
            let clear = "\u{1B}[H\u{1B}[2J\u{1B}[3J"
            _ = clear.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
        }
    }

    /// Whether the run was asked to stop (SIGINT, SIGTERM).
    private static var isStopped: Bool { Interrupts.received != nil }

    /// The exit status once watching stops: 0 for SIGINT (Ctrl-C is how
    /// watching ends), the usual status for SIGTERM and SIGHUP.
    private static var stoppedStatus: ExitStatus {
        switch Interrupts.received {
        case let signal? where signal != SIGINT: .stopped(by: signal)
        default: .success
        }
    }

    /// Runs the first run (`selection` and `feed` are the run's), then
    /// watches until interrupted.
    func run(first selection: StorySelection, feed: StoryFeed) async -> ExitStatus {
        let output = context.output
        guard selection.pathDiagnostics.isEmpty else {
            feed.stop()
            for diagnostic in selection.pathDiagnostics { output(diagnostic.rendered(style: context.style)) }
            return .inputError
        }
        guard case (let rebuild, let sources, var notes)? = watchedSources() else {
            feed.stop()
            return .inputError
        }
        let tree = WatchedTree(storyPaths: options.paths, sourcesFolder: sources)
        // Watching starts before the first run, so a save during it counts.
        let (watcher, note) = tree.makeWatcher(isPolling: settings.isPolling)
        if let note { notes.append("storyrun: " + note) }

        if !rejectedDefinitions.isEmpty {
            // As a build that fails: what is wrong, then watching goes on
            // (when a rebuild can fix it).
            feed.stop()
            showRejected()
            for note in notes { output(note) }
            guard rebuild != nil else { return .inputError }
            showStatus(tree, outcome: Self.rejectedOutcome)
        } else {
            await runStories(selection: selection, feed: feed)
            if Self.isStopped { return Self.stoppedStatus }
            for note in notes { output(note) }
            showStatus(tree, outcome: "last run: " + record.countsText)
        }

        knownStories = Self.storyFiles(in: tree)
        while let changes = watcher.nextChanges(isStopped: { Self.isStopped }) {
            let swiftChanges = changes.filter { tree.kind(of: $0) == .swiftSource }.sorted()
            // A build that fails keeps the executable that runs: the story
            // files saved with the source run with it, below the errors.
            var buildProblem: String?
            if let rebuild, let changed = swiftChanges.first {
                switch self.rebuild(rebuild, for: changed, tree: tree) {
                case .stopped: return Self.stoppedStatus
                case .restarted: continue
                case .failed: buildProblem = "build failed"
                case .unchanged: break
                }
            }
            let (storyFiles, runsEvenEmpty) = filesToRun(after: changes, in: tree)
            if !rejectedDefinitions.isEmpty, !storyFiles.isEmpty {
                if buildProblem == nil { clearScreen() }
                showRejected()
                showStatus(tree, outcome: Self.rejectedOutcome)
                continue
            }
            guard !storyFiles.isEmpty || runsEvenEmpty else {
                // A file or a path of the run gone (or back, empty): the
                // status says so.
                showStatus(
                    tree, outcome: buildProblem ?? (rejectedDefinitions.isEmpty ? "last run: " + record.countsText : Self.rejectedOutcome))
                continue
            }
            await run(storyFiles, tree: tree, buildProblem: buildProblem)
            if Self.isStopped { return Self.stoppedStatus }
        }
        return Self.stoppedStatus
    }

    /// The Swift rebuild (`--watch-sources`), the sources folder watched and
    /// the notes for after the first run; nil (after saying why) when the
    /// folder is not one.
    private func watchedSources() -> (rebuild: SwiftRebuild?, sources: String?, notes: [String])? {
        guard let folder = settings.swiftSources else { return (nil, nil, []) }
        guard let rebuild = SwiftRebuild.forExecutable(SwiftRebuild.runningExecutable()) else {
            return (nil, nil, ["storyrun: Swift sources are not watched: \(Options.executableName) is not in a package's .build folder"])
        }
        guard WatchedTree.isFolder(folder) else {
            context.output("storyrun: --watch-sources \(folder) is not a folder")
            return nil
        }
        return (rebuild, folder, [])
    }

    /// What a rebuild after a Swift source changed came to.
    private enum RebuildTurn { case stopped, restarted, failed, unchanged }

    /// Builds the executable again after `changed` was saved; restarts it
    /// when the build changed it.
    private func rebuild(_ rebuild: SwiftRebuild, for changed: String, tree: WatchedTree) -> RebuildTurn {
        let output = context.output
        clearScreen()
        output("storyrun: \(changed) changed: building \(rebuild.product) (\(rebuild.configuration))…")
        switch rebuild.build(isStopped: { Self.isStopped }) {
        case .interrupted: return .stopped
        case .failed(let errors):
            output(errors)
            return .failed
        case .cannotStart(let reason):
            output("storyrun: cannot build: \(reason)")
            return .failed
        case .rebuilt:
            output("storyrun: restarting \(rebuild.product)")
            output("storyrun: " + rebuild.restart())
            showStatus(tree, outcome: "restart failed")
            return .restarted
        case .unchanged:
            output("storyrun: the build left \(rebuild.product) as it was")
            return .unchanged
        }
    }

    /// The story files to run after `changes`: those saved, and when a
    /// story file the last run ran is gone (deleted, renamed away, its
    /// folder removed or moved) and reports are written, the last run's
    /// other files, so that the reports, rewritten by each run, lose its
    /// stories (`runsEvenEmpty`). A file gone leaves the status.
    private func filesToRun(after changes: Set<String>, in tree: WatchedTree) -> (files: [String], runsEvenEmpty: Bool) {
        let stories = Self.storyFiles(in: tree)
        var deleted = knownStories.subtracting(stories)
        knownStories = stories
        var (storyFiles, gone) = savedStoryFiles(in: changes, of: tree)
        deleted.formUnion(gone)
        for file in deleted { record.forget(file: file) }
        guard !lastRunFiles.isDisjoint(with: deleted), options.reports.contains(where: \.format.isFile) else { return (storyFiles, false) }
        storyFiles += lastRunFiles.subtracting(deleted).filter { stories.contains($0) && !storyFiles.contains($0) }
        return (storyFiles, true)
    }

    /// Runs story files saved (the files with failures first, then by name)
    /// and shows the status.
    private func run(_ files: [String], tree: WatchedTree, buildProblem: String?) async {
        let storyFiles = files.sorted { a, b in
            let (failedA, failedB) = (record.hasFailures(in: a), record.hasFailures(in: b))
            return failedA != failedB ? failedA : a < b
        }
        var runOptions = options
        runOptions.paths = Self.paths(for: storyFiles, arguments: options.paths)
        switch StorySelection.make(runOptions) {
        case .failure(let diagnostic):
            context.output(diagnostic.rendered(style: context.style))
            showStatus(tree, outcome: buildProblem ?? "no run")
        case .success(let selection):
            let runsInProcess = options.isInProcess || options.isDryRun || !StoryRun.startsWorkers
            let feed = StoryFeed(
                files: selection.files, filter: selection.filter, matchesSteps: runsInProcess,
                keepsParses: options.reports.contains(where: \.format.readsStoryFiles),
                keepsOnlyRowFiles: ReportFormat.readsOnlyRowFiles(options.reports.map(\.format)))
            feed.match(with: registry)
            await runStories(selection: selection, feed: feed, options: runOptions, clearsScreen: buildProblem == nil)
            if Self.isStopped { return }
            showStatus(tree, outcome: (buildProblem.map { $0 + "; " } ?? "") + "last run: " + record.countsText)
        }
    }

    /// The changed story files that are there to run, and those gone. One
    /// that is there but is not a regular file (a FIFO saved as
    /// `x.stories`) counts as gone, and is named once, never opened.
    private func savedStoryFiles(in changes: Set<String>, of tree: WatchedTree) -> (saved: [String], gone: Set<String>) {
        var saved: [String] = []
        var gone: Set<String> = []
        for file in changes where tree.kind(of: file) == .story {
            guard WatchedTree.stamp(file) == nil else {
                saved.append(file)
                notRegularNamed.remove(file)
                continue
            }
            gone.insert(file)
            if let warning = WatchedTree.notRegularWarning(file), notRegularNamed.insert(file).inserted { context.output(warning) }
        }
        return (saved, gone)
    }

    /// The story files of the tree now.
    private static func storyFiles(in tree: WatchedTree) -> Set<String> {
        Set(tree.scan().keys.filter { tree.kind(of: $0) == .story })
    }

    /// The status line's outcome while step definitions are rejected.
    static let rejectedOutcome = "step definitions rejected"

    /// Shows the rejected step definitions (each at its file:line) and
    /// that no story was run.
    private func showRejected() {
        for diagnostic in rejectedDefinitions { context.output(diagnostic.rendered(style: context.style)) }
        let count = rejectedDefinitions.count
        context.output(
            "storyrun: no story was run: \(count) step definition\(count == 1 ? " was" : "s were") rejected"
                + "; save a fix in the Swift sources to rebuild")
    }

    /// Clears the screen (unless a failed build's errors are on it) and runs
    /// the stories, the failed ones first.
    /// Only the first run, of every story, lists the definitions no story
    /// used: the others run just the files saved.
    private func runStories(selection: StorySelection, feed: StoryFeed, options: Options? = nil, clearsScreen: Bool = true) async {
        if clearsScreen { clearScreen() }
        // What failed before decides the order; the files run start afresh,
        // so a story renamed or deleted since is forgotten.
        let before = record
        for file in selection.files { record.forget(file: file) }
        lastRunFiles = Set(selection.files.map(StoryPath.canonical))
        _ = await StoryRun.runStories(
            options ?? self.options, selection: selection, feed: feed, registry: registry, context: context,
            userReporters: [], clock: clock, observe: { [unowned self] in record.note($0) },
            runsFirst: before.isEmpty ? nil : { before.hasFailed($0) }, listsUnused: options == nil)
    }

    private func showStatus(_ tree: WatchedTree, outcome: String) {
        context.output(WatchRecord.statusLine(
            fileCount: tree.scan().count, missing: tree.missingRoots(), outcome: outcome, at: now()))
    }

    /// The paths that run the changed story files: a file the command line
    /// named with lines (`a.stories:12`) keeps them.
    static func paths(for files: [String], arguments: [String]) -> [String] {
        files.flatMap { file in
            let named = arguments.filter { argument in
                let (paths, lines, _) = StoryFilter.splitLines([argument])
                guard let path = paths.first else { return false }
                return StoryPath.canonical(path) == file && lines[path] != nil
            }
            return named.isEmpty ? [file] : named
        }
    }
}
