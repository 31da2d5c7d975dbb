import Foundation

/// The `storyrun` command line, for `storyrun` itself and for every user
/// executable that runs its own step classes.
///
/// ```swift
/// @main struct Main {
///     static func main() async { await StoryRun.main(steps: [BasketSteps.self]) }
/// }
/// ```
public enum StoryRun {
    /// The version of StoryKit.
    public static let version = "0.1.0"

    /// Runs the command line with the process's arguments and exits.
    /// - Parameters:
    ///   - steps: The step classes to register, in order.
    ///   - reporters: Reports of your own, fed the same ``RunEvent``s as the
    ///     built-in ones, in the process that decides the verdict; each one's
    ///     `finish()` runs when the run is over (a throw exits 2).
    @MainActor
    public static func main(steps: [any StepDefinitions.Type], reporters: sending [any Reporter] = []) async -> Never {
        // On the main thread, which the entry point already has: a run that
        // can start no thread says so here, where the first hop to the
        // concurrent threads would wait for ever for one (libdispatch
        // retries a failed thread start endlessly).
        StandardDescriptors.open()
        var arguments = Array(CommandLine.arguments.dropFirst())
        var isWorker = arguments.first == "--worker"
        if isWorker { PhaseTimer.isWorker() }
        PhaseTimer.mark("main")
        // Before anything else: a SIGTERM while the steps register or the
        // first worker starts stops the run as one later does (its reports
        // say nothing ran; an earlier run's are not left in their place).
        // A forked worker has every signal back to its default.
        if !isWorker {
            Interrupts.install()
            Orphans.waitsForChildren()
        }
        // A run's first worker starts first of all, so that its start-up
        // overlaps everything this process does before it needs it; forked
        // when it can be, this process goes on as that worker too.
        var registry: StepRegistry?
        if !isWorker, let prestarted = prestartWorker(arguments: arguments, steps: steps) {
            registry = prestarted.registry
            if let workerArguments = prestarted.workerArguments {
                isWorker = true
                arguments = ["--worker"] + workerArguments
                PhaseTimer.isWorker()
                PhaseTimer.mark("main")
            }
        }
        // Without a few threads the run would wait for ever for one.
        guard Threads.canStart(4) else {
            Supervisor.discardPrestarted()
            let problem = Threads.cannotStart("run stories")
            FileHandle.standardError.write(Data((problem.rendered(style: .plain) + "\n").utf8))
            exit(ExitStatus.inputError.rawValue)
        }
        await runCommandLine(arguments: arguments, isWorker: isWorker, steps: steps, registry: registry, reporters: reporters)
    }

    /// The rest of ``main(steps:reporters:)``, off the main thread.
    private static func runCommandLine(
        arguments: [String], isWorker: Bool, steps: [any StepDefinitions.Type], registry: StepRegistry?, reporters: sending [any Reporter]
    ) async -> Never {
        // A worker takes signals as they come: its parent decides what a
        // crash or a SIGTERM in a step means.
        if !isWorker { CrashNote.install() }
        startsWorkers = true
        // Two variables: `getenv`, not a dictionary of every one.
        let isTerminal = isatty(STDOUT_FILENO) == 1
        let isColoured = getenv("NO_COLOR") == nil && isTerminal
        let status = await run(
            arguments: arguments, steps: steps, registered: registry, reporters: reporters,
            style: isColoured ? .ansi : .plain,
            isGitHubActions: getenv("GITHUB_ACTIONS").map { String(cString: $0) } == "true",
            clock: { DispatchTime.now().uptimeNanoseconds },
            startTime: Date(),
            output: { StandardOutput.writeLine(TerminalText.visible($0, allowsColour: isColoured)) },
            partialOutput: isTerminal ? { print(TerminalText.visible($0, allowsColour: isColoured), terminator: ""); fflush(nil) } : nil)
        // Workers started for a run that did not happen (a rejected story
        // file or step definition, say).
        Supervisor.discardPrestarted()
        PhaseTimer.mark("exit")
        // From here the exit is storyrun's own.
        CrashNote.runsStories(false)
        exit(status.rawValue)
    }

    /// Starts the first worker of a supervised run of stories, if the
    /// arguments ask for one; the run takes it when its worker arguments are
    /// the same (and ends it otherwise). Returns the step registry, when the
    /// step classes registered here, and the worker's arguments when this
    /// process is that worker (forked); nil when no worker started.
    ///
    /// When the worker can be forked, the step classes register first, so
    /// that the worker has their definitions from the fork rather than
    /// registering them again: registering after the fork had the worker
    /// copy every page it touched, and it was the last of the two
    /// processes to be ready (at 1,000 definitions, about 3 of the 7 ms a
    /// one-story run took, and 15 ms of CPU a run). A registration that
    /// rejects a definition starts no worker: the run registers again and
    /// says why.
    private static func prestartWorker(
        arguments: [String], steps: [any StepDefinitions.Type]
    ) -> (registry: StepRegistry?, workerArguments: [String]?)? {
        guard let options = try? Options.load(arguments: arguments),
            options.command == .run,
            !options.isInProcess, !options.isDryRun, options.watch == nil
        else { return nil }
        // Not forked when the worker is another executable (a test's).
        let forking = getenv("STORYRUN_WORKER_EXECUTABLE") == nil
        var registry: StepRegistry?
        if forking {
            // As the run sets them: step classes may read them as they register.
            StoryParameters.current.withLock { $0 = StoryParameters(options.parameters) }
            let builder = RegistryBuilder()
            builder.register(steps)
            guard builder.diagnostics.isEmpty else { return nil }
            registry = builder.freeze()
            PhaseTimer.mark("registered")
        }
        let isWorker = Supervisor.prestart(arguments: options.workerArguments, forking: forking)
        return (registry, isWorker ? options.workerArguments : nil)
    }

    /// Whether runs start worker processes: only when this executable's
    /// entry point is ``main(steps:)``, so that it can be a worker too. A
    /// run started from elsewhere (a test) runs in process.
    nonisolated(unsafe) static var startsWorkers = false

    /// Runs the command line and returns its exit status.
    /// - Parameters:
    ///   - arguments: The arguments after the executable's name.
    ///   - steps: The step classes to register, in order.
    ///   - reporters: Reports of your own, after the built-in ones (a run
    ///     of stories only).
    ///   - style: How to colour terminal text (`--no-color` turns it off).
    ///   - isGitHubActions: Whether the run is a GitHub Actions job, which
    ///     adds the `github` annotations to the terminal report.
    ///   - clock: The current time in nanoseconds.
    ///   - startTime: The wall-clock time the run starts, for reports that
    ///     carry timestamps.
    ///   - output: Where each line of terminal text goes.
    ///   - partialOutput: Where terminal text without a line end goes; nil
    ///     when the output is not a terminal.
    public static func run(
        arguments: [String], steps: [any StepDefinitions.Type], reporters: [any Reporter] = [], style: TextStyle = .plain,
        isGitHubActions: Bool = false,
        clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
        startTime: Date = Date(),
        output: @escaping (String) -> Void,
        partialOutput: ((String) -> Void)? = nil
    ) async -> ExitStatus {
        await run(
            arguments: arguments, steps: steps, registered: nil, reporters: reporters, style: style, isGitHubActions: isGitHubActions,
            clock: clock, startTime: startTime, output: output, partialOutput: partialOutput)
    }

    /// ``run(arguments:steps:reporters:style:isGitHubActions:clock:startTime:output:partialOutput:)``
    /// with the step classes registered already (`registered`: before the
    /// first worker was forked), for a run of stories or a worker.
    private static func run(
        arguments: [String], steps: [any StepDefinitions.Type], registered: StepRegistry?, reporters: [any Reporter], style: TextStyle,
        isGitHubActions: Bool,
        clock: @escaping @Sendable () -> UInt64,
        startTime: Date,
        output: @escaping (String) -> Void,
        partialOutput: ((String) -> Void)?
    ) async -> ExitStatus {
        var options: Options
        do {
            options = try Options.load(arguments: arguments)
        } catch {
            output(error.rendered(style: style))
            return .inputError
        }
        // Steps and hooks read the run's parameters; a run inside a step (a
        // test of storyrun) gives them back when it ends.
        let outerParameters = StoryParameters.current.withLock { current in
            defer { current = StoryParameters(options.parameters) }
            return current
        }
        defer { StoryParameters.current.withLock { $0 = outerParameters } }
        if let file = options.emptyRerunFile, options.paths.isEmpty, options.command == .run {
            output("storyrun: nothing to rerun: \(file) names no story (the run that wrote it had no failures)")
            return .success
        }
        if isGitHubActions && !options.reports.contains(where: { $0.format == .github }) {
            options.reports.append(ReportRequest(format: .github))
        }
        if let status = runWithoutSteps(options, style: style, output: output) { return status }
        // What follows writes with --no-color's style and output.
        do {
            let style = options.isColorDisabled ? .plain : style
            // --no-color: no escape sequence reaches the terminal, not even
            // a story's own colours (the caller's output lets storyrun's pass).
            let output = options.isColorDisabled ? { output(TerminalText.visible($0, allowsColour: false)) } : output
            // A run reads and parses its story files while the step classes register.
            var started: (selection: StorySelection, feed: StoryFeed)?
            if options.command == .run {
                switch startReading(options) {
                case .failure(let diagnostic):
                    output(diagnostic.rendered(style: style))
                    return .inputError
                case .success(let reading): started = reading
                }
            }
            let builder = RegistryBuilder()
            let registry: StepRegistry
            if let registered, options.command == .run || options.command == .worker {
                registry = registered
            } else {
                builder.register(steps)
                guard builder.diagnostics.isEmpty else {
                    return await rejected(
                        builder.diagnostics, options, started: started, style: style, output: output, partialOutput: partialOutput,
                        startTime: startTime, clock: clock)
                }
                registry = builder.freeze()
                PhaseTimer.mark("registered")
            }
            started?.feed.match(with: registry)
            guard options.command == .run else {
                return await runTool(options, registry: registry, parameterTypes: builder.parameterTypes, style: style, clock: clock, output: output)
            }
            guard let (selection, feed) = started else { return .success }
            let context = reporterContext(
                options, selection: selection, registry: registry, style: style, output: output, partialOutput: partialOutput,
                startTime: startTime)
            if let watch = options.watch {
                return await WatchMode(options: options, settings: watch, registry: registry, context: context, clock: clock)
                    .run(first: selection, feed: feed)
            }
            return await runStories(options, selection: selection, feed: feed, registry: registry, context: context, userReporters: reporters, clock: clock)
        }
    }

    /// A run whose step definitions were rejected: watch mode keeps
    /// watching (a save of the sources can fix them); any other run says
    /// why and runs nothing.
    private static func rejected(
        _ diagnostics: [Diagnostic], _ options: Options, started: (selection: StorySelection, feed: StoryFeed)?, style: TextStyle,
        output: @escaping (String) -> Void, partialOutput: ((String) -> Void)?, startTime: Date, clock: @escaping @Sendable () -> UInt64
    ) async -> ExitStatus {
        Supervisor.discardPrestarted()
        if let watch = options.watch, let (selection, feed) = started {
            let context = reporterContext(
                options, selection: selection, registry: StepRegistry(definitions: []), style: style, output: output,
                partialOutput: partialOutput, startTime: startTime)
            return await WatchMode(
                options: options, settings: watch, registry: context.registry!, context: context, clock: clock,
                rejectedDefinitions: diagnostics
            ).run(first: selection, feed: feed)
        }
        started?.feed.stop()
        for diagnostic in diagnostics { output(diagnostic.rendered(style: style)) }
        output("storyrun: no story was run: \(diagnostics.count) step definition\(diagnostics.count == 1 ? " was" : "s were") rejected")
        return .inputError
    }

    /// The commands that need no step class: help, version, match, pickles,
    /// merge, the languages; nil for the others.
    private static func runWithoutSteps(_ options: Options, style: TextStyle, output: @escaping (String) -> Void) -> ExitStatus? {
        switch options.command {
        case .help:
            output(Options.usage)
            return .success
        case .version:
            output("storyrun \(version)")
            return .success
        case .match(let syntax, let pattern, let text):
            return MatchCommand.run(syntax, pattern: pattern, text: text, output: output)
        case .pickles:
            return PicklesCommand.run(paths: options.paths, output: output)
        case .merge(let arguments):
            return MergeCommand.run(arguments: arguments, output: output)
        case .i18nLanguages:
            return LanguagesCommand.languages(output: output)
        case .i18nKeywords(let language):
            return LanguagesCommand.keywords(language, style: style, output: output)
        case .run, .check, .explain, .worker, .lsp, .definitions:
            return nil
        }
    }

    /// A run's story files, chosen and read on threads of their own while
    /// the step classes register; its first worker starts now, so that its
    /// start-up and registration overlap this process's.
    private static func startReading(_ options: Options) -> Result<(selection: StorySelection, feed: StoryFeed), Diagnostic> {
        StorySelection.make(options).map { selection in
            // A supervised parent does not match: its workers do, and say
            // which definition ran each step.
            let runsInProcess = options.isInProcess || options.isDryRun || !startsWorkers
            let feed = StoryFeed(
                files: selection.files, filter: selection.filter, matchesSteps: runsInProcess,
                keepsParses: options.reports.contains(where: \.format.readsStoryFiles),
                keepsOnlyRowFiles: ReportFormat.readsOnlyRowFiles(options.reports.map(\.format)))
            if !runsInProcess && options.watch == nil {
                Supervisor.prestart(arguments: options.workerArguments)
            }
            return (selection, feed)
        }
    }

    private static func reporterContext(
        _ options: Options, selection: StorySelection, registry: StepRegistry, style: TextStyle, output: @escaping (String) -> Void,
        partialOutput: ((String) -> Void)?, startTime: Date
    ) -> ReporterContext {
        ReporterContext(
            style: style, isVerbose: options.isVerbose, output: output,
            partialOutput: partialOutput, startTime: startTime, isStrict: options.isStrict, isDryRun: options.isDryRun,
            registry: registry, definitions: registry.definitions, isWholeRun: selection.filter.choosesAll, isReversed: options.order == .reverse,
            listsLibraryUnused: options.listsLibraryUnused, junitPlaces: options.junitPlaces)
    }

    /// The commands that read the registry but run no story file: check,
    /// explain, the language server, definitions, and a worker.
    private static func runTool(
        _ options: Options, registry: StepRegistry, parameterTypes: ParameterTypeRegistry, style: TextStyle,
        clock: @escaping @Sendable () -> UInt64, output: @escaping (String) -> Void
    ) async -> ExitStatus {
        switch options.command {
        case .check:
            let json = options.reports.first { $0.format == .json }?.path
            return CheckCommand.run(
                paths: options.paths, registry: registry, style: style, jsonPath: json,
                listsLibraryUnused: options.listsLibraryUnused, output: output)
        case .explain: return ExplainCommand.run(lines: options.paths, registry: registry, style: style, output: output)
        case .lsp: return LanguageServer.run(registry: registry)
        case .definitions(let json):
            return DefinitionsCommand.run(registry: registry, parameterTypes: parameterTypes, json: json, output: output)
        case .worker:
            var configuration = options.runnerConfiguration
            // Its parent sees each step start on the shared page.
            configuration.emitsStoryProgress = false
            // The parent decides when to stop.
            configuration.isFailFast = false
            return await WorkerMain.run(registry: registry, configuration: configuration, clock: clock)
        case .run, .help, .version, .match, .pickles, .merge, .i18nLanguages, .i18nKeywords: return .success
        }
    }

    /// Runs the stories of a selection and writes its reports; returns the
    /// run's exit status.
    /// - Parameters:
    ///   - observe: Sees every event of the run too (watch mode).
    ///   - runsFirst: Which stories run before the others (watch mode:
    ///     those that failed last time); nil keeps the order.
    ///   - listsUnused: Whether reports list the definitions no story used
    ///     (not when watch mode runs only the files just saved).
    static func runStories(
        _ options: Options, selection: StorySelection, feed: StoryFeed, registry: StepRegistry,
        context: ReporterContext, userReporters: [any Reporter], clock: @escaping @Sendable () -> UInt64,
        observe: ((RunEvent) -> Void)? = nil, runsFirst: ((Story) -> Bool)? = nil, listsUnused: Bool = true
    ) async -> ExitStatus {
        let output = context.output
        let reports = RunReports(
            options, context: context, feed: feed, userReporters: userReporters, clock: clock, observe: observe, listsUnused: listsUnused)
        let queue = RunQueue(feed: feed, reports: reports)
        queue.noteRejected(selection.pathDiagnostics)
        for diagnostic in selection.pathDiagnostics { reports.emit(.diagnostic(diagnostic)) }
        for line in startLines(options, selection: selection) { output(line) }
        reports.emit(.runStarted(fileCount: selection.files.count))
        for undefined in registry.undefinedParameterTypes { reports.emit(.diagnostic(undefined.diagnostic)) }
        // The feed reads, parses and matches files a few batches ahead, on
        // threads of its own; stories run a batch at a time, so memory stays
        // flat. A random order needs every story first (held).
        if options.order != .defined || runsFirst != nil { queue.hold(options.order, runsFirst: runsFirst) }

        var configuration = options.runnerConfiguration
        configuration.emitsStoryProgress = reports.readsStoryProgress
        PhaseTimer.mark("running")
        let coordinator = RunCoordinator(registry: registry, configuration: configuration, now: clock)
        let summary: RunSummary
        // A dry run runs no user code, so it needs no worker.
        if options.isInProcess || options.isDryRun || !startsWorkers {
            var executor = InProcessExecutor(registry: registry, configuration: configuration, now: clock)
            summary = await coordinator.run(&executor, queue: queue, emit: reports.emit, warn: output)
        } else {
            var executor = Supervisor(
                registry: registry, configuration: configuration, workerCount: max(1, options.jobs),
                workerArguments: options.workerArguments, now: clock)
            summary = await coordinator.run(&executor, queue: queue, emit: reports.emit, warn: output)
        }
        feed.stop()
        PhaseTimer.mark("ran")

        let leftOut = StorySelection.rerunLeftOut(options, leftOut: feed.byLine.total)
        var facts = RunVerdict.Facts(
            isStrict: options.isStrict, readsRerunFiles: !options.rerunFiles.isEmpty,
            choosesByNameOrTags: selection.filter.choosesByNameOrTags, foundStoryFiles: !selection.files.isEmpty,
            hasPathErrors: selection.pathDiagnostics.contains(where: \.isError), rejectedInputs: queue.rejected,
            rerunLeftOutAll: leftOut?.isAll)
        // What it says of a selection that ran nothing comes before the
        // reports are written; the status, once they are.
        for note in RunVerdict.of(summary, facts).notes {
            output(say(note, options, selection: selection, rerunLeftOut: leftOut?.line, style: context.style))
        }
        let reportProblems = reports.finish()
        for problem in reportProblems { output(problem.rendered(style: context.style)) }
        if let note = RunRules.rejectedInputNote(problems: queue.rejected) { output(note) }
        facts.reportProblems = reportProblems.count
        facts.signal = Interrupts.received
        let status = RunVerdict.of(summary, facts).status
        Supervisor.endRetired()
        return status
    }

    /// What the run says before its first story: the shard it runs, the
    /// random order's seed.
    private static func startLines(_ options: Options, selection: StorySelection) -> [String] {
        var lines: [String] = []
        if let shard = selection.shardSetAside {
            lines.append(StorySelection.shardNotSplittingRerun(options, shard: shard))
        } else if let source = options.shardSource, let shard = options.shard {
            lines.append("Running shard \(shard.index)/\(shard.count) (from \(source))")
        }
        if case .random(let seed) = options.order {
            lines.append("Running stories in random order with seed \(seed) (repeat it with --order random:\(seed))")
        }
        return lines
    }

    /// What the run says for a note of its verdict: a rerun file that chose
    /// nothing, a name or tag that chose nothing, a folder or files with no
    /// story in them, stories a rerun file named that filters left out.
    private static func say(
        _ note: RunVerdict.Note, _ options: Options, selection: StorySelection, rerunLeftOut: String?, style: TextStyle
    ) -> String {
        switch note {
        case .rerunRanNothing: StorySelection.rerunRanNothing(options).rendered(style: style)
        case .nothingChosen: StorySelection.nothingChosen(options)
        case .noStoryFile:
            "storyrun: no .stories or .feature file in \(options.paths.joined(separator: " "))\(options.isStrict ? " (an error under --strict)" : "")"
        case .noStoryIn: StorySelection.noStoryIn(selection.files, isStrict: options.isStrict)
        case .rerunLeftOut: rerunLeftOut ?? ""
        }
    }
}
