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
        guard arguments.first != "merge", !arguments.contains("--in-process"), let options = try? Options.load(arguments: arguments),
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
        if arguments.first == "merge" {
            return MergeCommand.run(arguments: Array(arguments.dropFirst()), output: output)
        }
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
        case .i18nLanguages:
            return LanguagesCommand.languages(output: output)
        case .i18nKeywords(let language):
            return LanguagesCommand.keywords(language, style: style, output: output)
        case .run, .check, .explain, .worker, .lsp, .definitions:
            let style = options.isColorDisabled ? .plain : style
            // --no-color: no escape sequence reaches the terminal, not even
            // a story's own colours (the caller's output lets storyrun's pass).
            let output = options.isColorDisabled ? { output(TerminalText.visible($0, allowsColour: false)) } : output
            // A run reads and parses its story files while the step classes register.
            var started: (selection: StorySelection, feed: StoryFeed)?
            if options.command == .run {
                switch StorySelection.make(options) {
                case .failure(let diagnostic):
                    output(diagnostic.rendered(style: style))
                    return .inputError
                case .success(let selection):
                    // A supervised parent does not match: its workers do, and say
                    // which definition ran each step.
                    let runsInProcess = options.isInProcess || options.isDryRun || !startsWorkers
                    let feed = StoryFeed(
                        files: selection.files, filter: selection.filter, matchesSteps: runsInProcess,
                        keepsParses: options.reports.contains(where: \.format.readsStoryFiles))
                    started = (selection, feed)
                    // Its first worker starts now: its start-up and
                    // registration overlap this process's.
                    if !runsInProcess && options.watch == nil {
                        Supervisor.prestart(arguments: options.workerArguments)
                    }
                }
            }
            let builder = RegistryBuilder()
            let registry: StepRegistry
            if let registered, options.command == .run || options.command == .worker {
                registry = registered
            } else {
                builder.register(steps)
                guard builder.diagnostics.isEmpty else {
                    Supervisor.discardPrestarted()
                    // Watch mode keeps watching: a save of the sources can fix them.
                    if let watch = options.watch, let (selection, feed) = started {
                        let registry = StepRegistry(definitions: [])
                        let context = ReporterContext(
                            style: style, isVerbose: options.isVerbose, output: output,
                            partialOutput: partialOutput, startTime: startTime, isStrict: options.isStrict, registry: registry,
                            definitions: [], isWholeRun: selection.filter.choosesAll, listsLibraryUnused: options.listsLibraryUnused)
                        return await WatchMode(
                            options: options, settings: watch, registry: registry, context: context, clock: clock,
                            rejectedDefinitions: builder.diagnostics
                        ).run(first: selection, feed: feed)
                    }
                    started?.feed.stop()
                    for diagnostic in builder.diagnostics { output(diagnostic.rendered(style: style)) }
                    output("storyrun: no story was run: \(builder.diagnostics.count) step definition\(builder.diagnostics.count == 1 ? " was" : "s were") rejected")
                    return .inputError
                }
                registry = builder.freeze()
                PhaseTimer.mark("registered")
            }
            started?.feed.match(with: registry)
            switch options.command {
            case .check:
                let json = options.reports.first { $0.format == .json }?.path
                return CheckCommand.run(
                    paths: options.paths, registry: registry, style: style, jsonPath: json,
                    listsLibraryUnused: options.listsLibraryUnused, output: output)
            case .explain: return ExplainCommand.run(lines: options.paths, registry: registry, style: style, output: output)
            case .lsp: return LanguageServer.run(registry: registry)
            case .definitions(let json):
                return DefinitionsCommand.run(registry: registry, parameterTypes: builder.parameterTypes, json: json, output: output)
            case .worker:
                var configuration = runnerConfiguration(options)
                // Its parent sees each step start on the shared page.
                configuration.emitsStoryProgress = false
                // The parent decides when to stop.
                configuration.isFailFast = false
                return await WorkerMain.run(registry: registry, configuration: configuration, clock: clock)
            case .help, .version, .match, .pickles, .i18nLanguages, .i18nKeywords: return .success
            case .run:
                guard let (selection, feed) = started else { return .success }
                let context = ReporterContext(
                    style: style, isVerbose: options.isVerbose, output: output,
                    partialOutput: partialOutput, startTime: startTime, isStrict: options.isStrict, isDryRun: options.isDryRun,
                    registry: registry, definitions: registry.definitions, isWholeRun: selection.filter.choosesAll, isReversed: options.order == .reverse,
                    listsLibraryUnused: options.listsLibraryUnused, junitPlaces: options.junitPlaces)
                if let watch = options.watch {
                    return await WatchMode(
                        options: options, settings: watch, registry: registry, context: context, clock: clock
                    ).run(first: selection, feed: feed)
                }
                return await runStories(
                    options, selection: selection, feed: feed, registry: registry, context: context,
                    userReporters: reporters, clock: clock)
            }
        }
    }

    private static func runnerConfiguration(_ options: Options) -> Runner.Configuration {
        Runner.Configuration(
            isStrict: options.isStrict, isDryRun: options.isDryRun, isFailFast: options.isFailFast,
            retries: options.retries, stepTimeout: options.stepTimeout, snippetStyle: options.snippetStyle)
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
        let style = context.style
        let output = context.output
        let start = clock()
        let files = selection.files
        let pathDiagnostics = selection.pathDiagnostics

        // On a terminal, a live line shows the counts while stories run.
        var context = context
        var liveLine: TerminalLine?
        if let partial = context.partialOutput, context.style == .ansi,
            !options.reports.contains(where: { $0.format == .progress })
        {
            let line = TerminalLine(writePartial: partial, writeLine: context.output)
            context.output = line.write
            liveLine = line
        }
        func makeReporter(_ request: ReportRequest) -> any Reporter {
            var context = context
            context.path = request.path
            return request.format.makeReporter(context)
        }
        // The terminal reports (and the caller's own) take each event here,
        // in step with the run; the file reports render on a thread of
        // their own, so their work overlaps with running.
        var reporters: [any Reporter] = options.reports.filter { !$0.format.isFile }.map(makeReporter) + userReporters
        if let liveLine {
            reporters.insert(LiveStatusReporter(line: liveLine, style: context.style, now: clock), at: 0)
        }
        // Cucumber Messages, the heaviest, renders on a thread of its own,
        // the other file reports on another, and each thread writes its
        // reports at the end. Reports that go straight to standard output, a
        // device or a FIFO (written as they are made, no temporary file)
        // render on one thread and are written by this one, one after
        // another and after the terminal reports, so that none mixes with
        // another. The reports of both threads share the story files they
        // read, through one cache (made anew for each run: watch mode
        // reads the files anew).
        let fileRequests = Array(options.reports.filter(\.format.isFile).enumerated())
        let writesOnThreads = fileRequests.allSatisfy { _, request in
            // Allure writes files into its folder, never one file in place.
            if request.format == .allure { return true }
            guard let path = request.path, case .replacing = try? ReportDestination(path: path) else { return false }
            return true
        }
        let fileGroups = writesOnThreads
            ? [fileRequests.filter { $0.element.format == .messages }, fileRequests.filter { $0.element.format != .messages }]
            : [fileRequests]
        context.fileInfos = StoryFileInfo.Recent(parses: feed.parses)
        let fileReports = fileGroups.filter { !$0.isEmpty }.map { group in
            (order: group.map(\.offset), thread: ReportThread(
                reporters: group.map { makeReporter($0.element) }, writesOnThread: writesOnThreads,
                replacing: group.filter { $0.element.format != .allure }.compactMap(\.element.path)))
        }
        func emit(_ event: RunEvent) {
            if !listsUnused, case .runFinished(var summary) = event {
                summary.unusedDefinitions = []
                return deliver(.runFinished(summary))
            }
            deliver(event)
        }
        func deliver(_ event: RunEvent) {
            for index in reporters.indices { reporters[index].handle(event) }
            for report in fileReports { report.thread.send(event) }
            observe?(event)
        }
        // Problems in the input, and the story files they rejected (a rerun
        // reads those whole again).
        var rejected = 0
        var rejectedFiles: [String] = []
        // Each file's errors go to the reports as one event.
        func noteRejected(_ diagnostics: [Diagnostic]) {
            var files: [RejectedFile] = []
            // A path that names no file (`nope.stories`) has no place: its
            // errors go as a rejected file without a path.
            var unplaced: [Diagnostic] = []
            for diagnostic in diagnostics where diagnostic.isError {
                rejected += 1
                guard let location = diagnostic.location else {
                    unplaced.append(diagnostic)
                    continue
                }
                if !rejectedFiles.contains(location.displayPath) { rejectedFiles.append(location.displayPath) }
                if let index = files.firstIndex(where: { $0.path == location.file }) {
                    files[index].problems.append(diagnostic)
                } else {
                    files.append(RejectedFile(path: location.file, problems: [diagnostic]))
                }
            }
            if !unplaced.isEmpty { files.append(RejectedFile(path: "", problems: unplaced)) }
            for file in files { emit(.storyFileRejected(file)) }
        }
        noteRejected(pathDiagnostics)
        for diagnostic in pathDiagnostics { emit(.diagnostic(diagnostic)) }

        if let shard = selection.shardSetAside {
            output(StorySelection.shardNotSplittingRerun(options, shard: shard))
        } else if let source = options.shardSource, let shard = options.shard {
            output("Running shard \(shard.index)/\(shard.count) (from \(source))")
        }
        if case .random(let seed) = options.order {
            output("Running stories in random order with seed \(seed) (repeat it with --order random:\(seed))")
        }
        emit(.runStarted(fileCount: files.count))
        for undefined in registry.undefinedParameterTypes { emit(.diagnostic(undefined.diagnostic)) }
        // The feed reads, parses and matches files a few batches ahead, on
        // threads of its own; stories run a batch at a time, so memory stays
        // flat. A random order needs every story first (held).
        var held: [PlannedStory]?
        if options.order != .defined || runsFirst != nil {
            var stories: [PlannedStory] = []
            while let batch = feed.next() {
                for diagnostic in batch.diagnostics { emit(.diagnostic(diagnostic)) }
                noteRejected(batch.diagnostics)
                stories += batch.stories
            }
            held = options.order.apply(to: stories)
            if let runsFirst {
                held = held!.filter { runsFirst($0.story) } + held!.filter { !runsFirst($0.story) }
            }
        }
        var current: [PlannedStory] = []
        var currentIndex = 0
        /// The next story to run, from the held list or the feed.
        func next() -> PlannedStory? {
            if held != nil { return held!.isEmpty ? nil : held!.removeFirst() }
            while currentIndex == current.count {
                guard let batch = feed.next() else { return nil }
                for diagnostic in batch.diagnostics { emit(.diagnostic(diagnostic)) }
                noteRejected(batch.diagnostics)
                // The batch run goes back to the feed's thread, which made
                // it, to be freed (see ``Spent``).
                if !current.isEmpty { feed.recycle(StoryFeed.Batch(path: "", stories: current, diagnostics: [])) }
                current = batch.stories
                currentIndex = 0
            }
            currentIndex += 1
            return current[currentIndex - 1]
        }

        var summary: RunSummary
        var configuration = runnerConfiguration(options)
        configuration.emitsStoryProgress = observe != nil || reporters.contains { $0.readsStoryProgress }
        PhaseTimer.mark("running")
        // A dry run runs no user code, so it needs no worker.
        if options.isInProcess || options.isDryRun || !startsWorkers {
            var runner = Runner(registry: registry, configuration: configuration, now: clock)
            CrashNote.runsStories(true)
            await runner.begin(emit: emit)
            while !runner.isStopped, Interrupts.received == nil, let planned = next() {
                await runner.run(planned, emit: emit)
            }
            var notRunStories: [SourceLocation] = []
            while let planned = next() { notRunStories.append(planned.story.location) }
            let notRun = notRunStories.count
            let wasInterrupted = Interrupts.received != nil
            runner.noteNotRun(notRunStories, interrupted: wasInterrupted, rejectedFiles: rejectedFiles)
            // Before the totals, where a supervised run says it too.
            if notRun > 0 {
                output("storyrun: \(notRun) stor\(notRun == 1 ? "y was" : "ies were") not run" + (wasInterrupted ? " (the run was interrupted)" : runner.hasFailedBeforeRun ? " (a before-run hook failed)" : " (--fail-fast)"))
            }
            summary = await runner.finish(emit: emit)
        } else {
            let supervisor = Supervisor(
                registry: registry, configuration: configuration, workerCount: max(1, options.jobs),
                workerArguments: options.workerArguments, now: clock)
            summary = StandardOutput.gathering { supervisor.run(next: next, emit: emit, warn: output) }
            summary.duration = clock() &- start
            summary.rejectedFiles = rejectedFiles
            emit(.runFinished(summary))
        }
        feed.stop()
        PhaseTimer.mark("ran")

        var status: ExitStatus = summary.hasFailures(strict: options.isStrict) ? .storyFailed : .success
        if !options.rerunFiles.isEmpty, summary.stories.values.reduce(0, +) == 0, summary.notRun == 0,
            summary.rejectedFiles.isEmpty, status == .success
        {
            output(StorySelection.rerunRanNothing(options).rendered(style: style))
            status = .inputError
        } else if selection.filter.choosesByNameOrTags, summary.stories.values.reduce(0, +) == 0, summary.notRun == 0 {
            output(StorySelection.nothingChosen(options))
            if options.isStrict { status = .storyFailed }
        } else if selection.files.isEmpty, !selection.pathDiagnostics.contains(where: \.isError) {
            // A folder that holds no story file (a wrong path, stories
            // saved as .story): said, not a silent "0 passed".
            output("storyrun: no .stories or .feature file in \(options.paths.joined(separator: " "))\(options.isStrict ? " (an error under --strict)" : "")")
            if options.isStrict { status = .storyFailed }
        } else if summary.stories.values.reduce(0, +) == 0, summary.notRun == 0, rejected == 0, summary.rejectedFiles.isEmpty {
            // Files with no story in them (empty, blank, comments, a
            // `Feature:` alone): said, as an empty folder is.
            output(StorySelection.noStoryIn(selection.files, isStrict: options.isStrict))
            if options.isStrict { status = .storyFailed }
        }
        if let note = StorySelection.rerunLeftOut(options, leftOut: feed.byLine.total, status: &status) { output(note) }
        if let signal = Interrupts.received { status = .stopped(by: signal) }
        // Every report is written whole first, then all are renamed at
        // once. The file reports write theirs on their own threads, at the
        // same time, once they have handled every event.
        for report in fileReports { report.thread.close() }
        let batch = ReportBatch()
        var reportProblems: [Diagnostic] = []
        batch.collect {
            for index in reporters.indices {
                do {
                    try reporters[index].finish()
                } catch {
                    reportProblems.append(error as? Diagnostic ?? Diagnostic(at: nil, problem: "\(error)"))
                }
            }
        }
        // Their problems in the order the reports were asked for.
        reportProblems += fileReports
            .flatMap { report in report.thread.finish(into: batch).map { (report.order[$0.reporter], $0.problem) } }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
        PhaseTimer.mark("reports-written")
        reportProblems += batch.publish()
        // A signal while the reports were written: they are whole (every
        // story had run), but the run was asked to stop, and says so.
        if let signal = Interrupts.received { status = .stopped(by: signal) }
        for problem in reportProblems {
            output(problem.rendered(style: style))
            if !status.isStoppedBySignal { status = .inputError }
        }
        if rejected > 0 {
            output("storyrun: \(rejected) problem\(rejected == 1 ? "" : "s") in the input (above); the stories they are in did not run")
            status = .inputError
        }
        Supervisor.endRetired()
        return status
    }
}
