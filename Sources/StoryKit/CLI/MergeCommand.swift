import Foundation

/// `storyrun merge IN.json… --html OUT --junit OUT --json OUT`: merges the
/// Cucumber JSON reports of several runs (CI shards) into one report.
///
/// The stories are read back from each file, in the order the files are
/// named, and fed to the reporters as the events of one run.
enum MergeCommand {
    /// The usage text.
    static let usage = """
        USAGE: storyrun merge IN.json... [--strict] [--html FILE] [--junit FILE] [--json FILE] ...

        Merges the Cucumber JSON reports (--json) of several runs, for example CI
        shards, into one report of every file kind storyrun writes, and prints the
        summary. Exits as the runs did: 1 when a merged story failed, a before-run
        or after-run hook failed, or (--strict, or runs that were --strict) a story
        was undefined or pending; 2 when a run rejected a story file, or a file
        cannot be read.
        """

    /// Runs the command.
    /// - Parameters:
    ///   - arguments: The arguments after `merge`.
    ///   - output: Where each line of terminal text goes.
    /// - Returns: The exit status: 0, 1 when a story failed, 2 for bad input.
    static func run(arguments: [String], output: @escaping (String) -> Void) -> ExitStatus {
        var inputs: [String] = []
        var reports: [ReportRequest] = []
        var isStrict = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "-h" || argument == "--help" {
                output(usage.replacingOccurrences(of: "storyrun merge", with: Options.executableName + " merge"))
                return .success
            } else if argument == "--strict" {
                isStrict = true
            } else if let format = ReportFormat.allCases.first(where: { $0.isFile && "--\($0.rawValue)" == argument }) {
                guard let path = remaining.popFirst() else {
                    return fail(Diagnostic(at: nil, problem: "\(argument) needs a value", help: "write \(argument) FILE"), output)
                }
                reports.append(ReportRequest(format: format, path: path))
            } else if argument.hasPrefix("-") {
                return fail(Diagnostic(at: nil, problem: "unknown option \(argument) for merge", help: "see `\(Options.executableName) merge --help`"), output)
            } else {
                inputs.append(argument)
            }
        }
        do {
            try Options.checkReportPaths(reports)
        } catch {
            return fail(error, output)
        }
        guard !inputs.isEmpty else {
            return fail(Diagnostic(at: nil, problem: "no Cucumber JSON files to merge", help: "run `\(Options.executableName) merge shard1.json shard2.json --html report.html`"), output)
        }
        // The same file twice (however spelled) would count its stories twice.
        var seenInputs: [String: String] = [:]
        for input in inputs {
            guard let identity = FileIdentity.of(input) else { continue }
            if let earlier = seenInputs[identity] {
                let same = earlier == input ? "" : " (\(earlier) and \(input) are the same file)"
                return fail(Diagnostic(
                    at: nil, problem: "\(input) is given twice to merge\(same): its stories would count twice",
                    help: "name each report once"), output)
            }
            seenInputs[identity] = input
        }
        var results: [StoryResult] = []
        // What failed the runs outside their stories, and whether any was
        // --strict: the merge fails as they did.
        var runHooks: [HookResult] = []
        var rejectedFiles: [RejectedFile] = []
        var otherFailures = 0
        var notRun = 0
        // Where each story was read, to name a story two inputs both have
        // (shards that overlap: their --timings files differed, say).
        var readFrom: [SourceLocation: String] = [:]
        var overlaps: [String] = []
        for input in inputs {
            let data: Data
            switch RegularFile.read(at: input) {
            case .success(let bytes): data = Data(bytes)
            case .failure(let failure): return fail(Diagnostic(at: nil, problem: failure.problem(input), help: failure.help), output)
            }
            do {
                let run = try CucumberJSONDecoder.decodeRun(data, path: input)
                let read = run.results
                runHooks += run.runHooks
                // Every shard reads (and rejects) every story file: a file
                // the runs rejected is named once.
                rejectedFiles += run.rejectedFiles.filter { !rejectedFiles.contains($0) }
                isStrict = isStrict || run.isStrict
                otherFailures += run.otherFailures
                notRun += run.notRun
                for result in read {
                    if let earlier = readFrom.updateValue(input, forKey: result.story.location), earlier != input {
                        overlaps.append("\(result.story.location.fileAndLine) (in \(earlier) and \(input))")
                    }
                }
                results += read
            } catch {
                return fail(error, output)
            }
        }
        if !overlaps.isEmpty {
            output("storyrun: warning: \(overlaps.count) stor\(overlaps.count == 1 ? "y is" : "ies are") in more than one of the merged reports, "
                + "and counted once for each: \(overlaps.prefix(5).joined(separator: ", "))\(overlaps.count > 5 ? ", …" : "") "
                + "(shards that overlap? every shard must read the same --timings file)")
        }
        // The earlier reports at the output paths go now, once every input
        // is read (an output may be one of the inputs), as a run's go when
        // it starts (see ``EarlierReport``).
        let batch = ReportBatch()
        batch.earlierModes = EarlierReport.remove(at: EarlierReport.anchored(reports.compactMap(\.path)))
        var context = ReporterContext(style: .plain, isVerbose: false, output: output, startTime: Date())
        context.isStrict = isStrict
        var reporters: [any Reporter] = [ReportFormat.summary.makeReporter(context)]
        for request in reports {
            var context = context
            context.path = request.path
            reporters.append(request.format.makeReporter(context))
        }
        let summary = replay(results, runHooks: runHooks, rejectedFiles: rejectedFiles, otherFailures: otherFailures, notRun: notRun) { event in
            for index in reporters.indices { reporters[index].handle(event) }
        }
        var status: ExitStatus =
            !rejectedFiles.isEmpty ? .inputError : summary.hasFailures(strict: isStrict) ? .storyFailed : .success
        var problems: [Diagnostic] = []
        batch.collect {
            for index in reporters.indices {
                do {
                    try reporters[index].finish()
                } catch {
                    problems.append(error as? Diagnostic ?? Diagnostic(at: nil, problem: "\(error)"))
                }
            }
        }
        problems += batch.publish()
        if !rejectedFiles.isEmpty {
            let count = rejectedFiles.count
            output("storyrun: the merged runs rejected \(count) story file\(count == 1 ? "" : "s") or path\(count == 1 ? "" : "s") (above); the stories in \(count == 1 ? "it" : "them") did not run")
        }
        for problem in problems {
            output(problem.rendered())
            status = .inputError
        }
        return status
    }

    /// Emits the events of a run that had these results, and returns its totals.
    /// - Parameters:
    ///   - results: The stories.
    ///   - runHooks: The before-run and after-run hooks that failed.
    ///   - rejectedFiles: The story files the runs rejected (their
    ///     problems are shown again, as the runs showed them).
    ///   - otherFailures: What else failed the runs (problems they gave as
    ///     notes), and `notRun`, the stories they did not run.
    static func replay(
        _ results: [StoryResult], runHooks: [HookResult] = [], rejectedFiles: [RejectedFile] = [], otherFailures: Int = 0, notRun: Int = 0,
        emit: (RunEvent) -> Void
    ) -> RunSummary {
        var summary = RunSummary()
        summary.failedHooks = otherFailures
        summary.notRun = notRun
        if let what = CucumberJSONReporter.RunFailures.describe(failures: otherFailures, notRun: notRun) {
            emit(.diagnostic(Diagnostic(at: nil, problem: "the merged runs failed: \(what) (see each run's output)")))
        }
        for rejected in rejectedFiles {
            for problem in rejected.problems { emit(.diagnostic(problem)) }
            emit(.storyFileRejected(rejected))
            let file = SourceLocation.relativePath(rejected.path)
            if !rejected.path.isEmpty, !summary.rejectedFiles.contains(file) { summary.rejectedFiles.append(file) }
        }
        emit(.runStarted(fileCount: Set(results.map(\.story.location.file)).count))
        /// A failed hook, as the run said it.
        func hook(_ hook: HookResult) {
            summary.failedHooks += 1
            emit(.diagnostic(Diagnostic(at: hook.location, problem: hook.error?.message ?? "the \(hook.kind) hook failed")))
            emit(.runHookFinished(hook))
        }
        runHooks.filter { !$0.kind.hasPrefix("after") }.forEach(hook)
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

    private static func fail(_ diagnostic: Diagnostic, _ output: (String) -> Void) -> ExitStatus {
        output(diagnostic.rendered())
        return .inputError
    }
}
