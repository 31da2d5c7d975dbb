import Foundation

/// `storyrun merge IN… --html OUT --junit OUT --json OUT`: merges the
/// records of several runs (CI shards) into the reports of one run.
///
/// Each input is the Cucumber Messages stream a run wrote (`--messages
/// FILE`), the lossless record of the run: its stories with every attempt,
/// run hooks, rejected story files, stories not run. The streams are read
/// (``MessagesReader``, ``MessagesRun``), joined (``MergedRun``) and fed to
/// every reporter as the events of one run. Cucumber JSON (`--json FILE`)
/// is still read, for compatibility: it says less (no run hooks, rejected
/// story files or stories not run, one attempt, no unused definitions),
/// and merge says so once (``jsonNote``).
enum MergeCommand {
    /// The usage text.
    static let usage = """
        USAGE: storyrun merge IN.ndjson... [--strict] [--html FILE] [--junit FILE] [--json FILE] ...

        Merges the Cucumber Messages streams (--messages FILE) of several runs,
        for example CI shards, into one report of every file kind storyrun
        writes, and prints the summary: the reports one run of every story would
        have written. Cucumber JSON reports (--json) merge too, with less in them.
        Exits as the runs did: 1 when a merged story failed or did not run, a
        before-run or after-run hook failed, or (--strict, or runs that were
        --strict) a story was undefined or pending; 2 when a run rejected a
        story file, or a file cannot be read or is not a run's record.
        """

    /// What the command line asks for.
    struct Request {
        var inputs: [String] = []
        var reports: [ReportRequest] = []
        var isStrict = false
        var isHelp = false
    }

    /// Runs the command.
    /// - Parameters:
    ///   - arguments: The arguments after `merge`.
    ///   - output: Where each line of terminal text goes.
    /// - Returns: The exit status: 0, 1 when a story failed, 2 for bad input.
    ///   - note: Where the note on Cucumber JSON inputs goes (standard error).
    static func run(arguments: [String], output: @escaping (String) -> Void, note: (String) -> Void = Self.standardError) -> ExitStatus {
        let request: Request
        var shards: [MergedRun.Shard] = []
        var readsJSON = false
        do throws(Diagnostic) {
            request = try parse(arguments)
            if request.isHelp {
                output(usage)
                return .success
            }
            for input in request.inputs {
                let (shard, isMessages) = try read(input)
                shards.append(shard)
                readsJSON = readsJSON || !isMessages
            }
        } catch {
            output(error.rendered())
            return .inputError
        }
        if readsJSON { note(jsonNote) }
        warnOfOverlaps(shards, inputs: request.inputs, output: output)
        var merged = MergedRun(shards)
        merged.isStrict = merged.isStrict || request.isStrict
        return write(merged, reports: request.reports, output: output)
    }

    /// Merge's options: the file reports (declared as a run's are,
    /// ``Options/reportDeclarations``), `--strict` and `--help`.
    static let declarations: [OptionDeclaration] = Options.reportDeclarations + [
        .flag(["--strict"], help: ["fail undefined and pending stories, as a --strict run does"]) { $0.isStrict = true },
        .flag(["--help", "-h"], help: ["print this help"]) { $0.command = .help },
    ]

    private static let declarationsByName = OptionDeclaration.byName(declarations)

    /// Reads the arguments: inputs and merge's options (``declarations``).
    static func parse(_ arguments: [String]) throws(Diagnostic) -> Request {
        var request = Request()
        var parsing = Options.Parsing(options: Options(), remaining: arguments[...], overridesEarlier: false)
        while let argument = parsing.remaining.popFirst() {
            if try parsing.readOption(argument, from: declarationsByName) {
                if parsing.options.command == .help {
                    request.isHelp = true
                    return request
                }
            } else if argument.hasPrefix("-") {
                let suggestion = OptionDeclaration.nearest(to: argument, in: declarations).map { "did you mean \($0)? " } ?? ""
                throw Diagnostic(
                    at: nil, problem: "unknown option \(argument) for merge", help: "\(suggestion)see `\(Options.executableName) merge --help`")
            } else {
                request.inputs.append(argument)
            }
        }
        request.isStrict = parsing.options.isStrict
        request.reports = parsing.options.reports
        try Options.checkReportPaths(request.reports)
        guard !request.inputs.isEmpty else {
            throw Diagnostic(at: nil, problem: "no runs to merge", help: "run `storyrun merge shard1.ndjson shard2.ndjson --html report.html`")
        }
        // The same file twice (however spelled) would count its stories twice.
        var seenInputs: [String: String] = [:]
        for input in request.inputs {
            guard let identity = FileIdentity.of(input) else { continue }
            if let earlier = seenInputs.updateValue(input, forKey: identity) {
                let same = earlier == input ? "" : " (\(earlier) and \(input) are the same file)"
                throw Diagnostic(at: nil, problem: "\(input) is given twice to merge\(same): its stories would count twice", help: "name each report once")
            }
        }
        return request
    }

    /// What merge says once when it reads Cucumber JSON: a run failure
    /// outside the stories is not in it (Cucumber's format has no place
    /// for one), so the merge cannot fail for it.
    static let jsonNote = "storyrun: note: Cucumber JSON cannot carry run hooks, rejected story files or stories not run, "
        + "so this merge does not know of them; merge the shards' --messages streams instead, which is lossless"

    /// Writes a line to standard error.
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Reads one input: a Messages stream, or Cucumber JSON; and whether
    /// it was a Messages stream.
    static func read(_ input: String) throws(Diagnostic) -> (MergedRun.Shard, isMessages: Bool) {
        let bytes: [UInt8]
        switch RegularFile.read(at: input) {
        case .success(let read): bytes = read
        case .failure(let failure): throw Diagnostic(at: nil, problem: failure.problem(input), help: failure.help)
        }
        if MessagesReader.isMessages(bytes) {
            return (MergedRun.Shard(try MessagesRun.read(MessagesReader.read(bytes, path: input), path: input)), true)
        }
        return (MergedRun.Shard(try CucumberJSONDecoder.decodeRun(Data(bytes), path: input)), false)
    }

    /// Warns of a story two inputs both have (shards that overlap: their
    /// --timings files differed, say): it counts twice.
    private static func warnOfOverlaps(_ shards: [MergedRun.Shard], inputs: [String], output: (String) -> Void) {
        var readFrom: [SourceLocation: String] = [:]
        var overlaps: [String] = []
        for (shard, input) in zip(shards, inputs) {
            for result in shard.results {
                if let earlier = readFrom.updateValue(input, forKey: result.story.location), earlier != input {
                    overlaps.append("\(result.story.location.fileAndLine) (in \(earlier) and \(input))")
                }
            }
        }
        guard !overlaps.isEmpty else { return }
        output("storyrun: warning: \(overlaps.count) stor\(overlaps.count == 1 ? "y is" : "ies are") in more than one of the merged reports, "
            + "and counted once for each: \(overlaps.prefix(5).joined(separator: ", "))\(overlaps.count > 5 ? ", …" : "") "
            + "(shards that overlap? every shard must read the same --timings file)")
    }

    /// Replays the merged run into the summary and each report, and
    /// returns the exit status one run would have had.
    private static func write(_ merged: MergedRun, reports: [ReportRequest], output: @escaping (String) -> Void) -> ExitStatus {
        // The earlier reports at the output paths go now, once every input
        // is read (an output may be one of the inputs), as a run's go when
        // it starts (see ``EarlierReport``).
        let batch = ReportBatch()
        batch.earlierModes = EarlierReport.remove(at: EarlierReport.anchored(reports.compactMap(\.path)))
        var context = ReporterContext(style: .plain, isVerbose: false, output: output, startTime: Date())
        context.isStrict = merged.isStrict
        var reporters: [any Reporter] = [ReportFormat.summary.makeReporter(context)]
        for request in reports {
            var context = context
            context.path = request.path
            reporters.append(request.format.makeReporter(context))
        }
        let summary = merged.replay { event in
            for index in reporters.indices { reporters[index].handle(event) }
        }
        var status: ExitStatus =
            !merged.rejectedFiles.isEmpty ? .inputError : summary.hasFailures(strict: merged.isStrict) ? .storyFailed : .success
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
        // As the runs said it.
        let rejected = merged.rejectedFiles.reduce(0) { $0 + max(1, $1.problems.count) }
        if let note = RunRules.rejectedInputNote(problems: rejected) { output(note) }
        for problem in problems {
            output(problem.rendered())
            status = .inputError
        }
        return status
    }

    /// Emits the events of a run that had these results, and returns its
    /// totals (for tests and reports made from results alone).
    static func replay(
        _ results: [StoryResult], runHooks: [HookResult] = [], rejectedFiles: [RejectedFile] = [], otherFailures: Int = 0, notRun: Int = 0,
        emit: (RunEvent) -> Void
    ) -> RunSummary {
        var run = MergedRun([])
        run.results = results
        run.runHooks = runHooks
        run.rejectedFiles = rejectedFiles
        run.note = RunOutcomeNote(otherFailures: otherFailures, notRun: notRun)
        return run.replay(emit: emit)
    }
}
