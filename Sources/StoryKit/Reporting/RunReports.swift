/// Every report of one run, fed from its one event stream: the terminal
/// reports (and the caller's own) take each event in step with the run;
/// the file reports render on threads of their own, so their work overlaps
/// with running, and are written whole at the end, then renamed into place
/// all at once.
final class RunReports {
    private var reporters: [any Reporter]
    private let fileReports: [(order: [Int], thread: ReportThread)]
    private let listsUnused: Bool
    private let observe: ((RunEvent) -> Void)?

    /// Whether some report shows each story as it starts and each step as
    /// it ends (the pretty terminal report), not only whole stories.
    var readsStoryProgress: Bool { observe != nil || reporters.contains { $0.readsStoryProgress } }

    /// - Parameters:
    ///   - observe: Sees every event too (watch mode).
    ///   - listsUnused: Whether reports list the definitions no story used.
    init(
        _ options: Options, context: ReporterContext, feed: StoryFeed, userReporters: [any Reporter],
        clock: @escaping @Sendable () -> UInt64, observe: ((RunEvent) -> Void)?, listsUnused: Bool
    ) {
        self.observe = observe
        self.listsUnused = listsUnused
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
        context.fileInfos = StoryFileInfo.Recent(parses: feed.parses)
        let make = { (request: ReportRequest) -> any Reporter in
            var context = context
            context.path = request.path
            return request.format.makeReporter(context)
        }
        reporters = options.reports.filter { !$0.format.isFile }.map(make) + userReporters
        if let liveLine {
            reporters.insert(LiveStatusReporter(line: liveLine, style: context.style, now: clock), at: 0)
        }
        fileReports = Self.fileReports(options.reports, make: make)
    }

    /// Cucumber Messages, the heaviest, renders on a thread of its own, the
    /// other file reports on another, and each thread writes its reports
    /// at the end. Reports that go straight to standard output, a device or
    /// a FIFO (written as they are made, no temporary file) render on one
    /// thread and are written by the caller's, one after another and after
    /// the terminal reports, so that none mixes with another. The reports
    /// of both threads share the story files they read, through one cache
    /// (made anew for each run: watch mode reads the files anew).
    private static func fileReports(
        _ requests: [ReportRequest], make: (ReportRequest) -> any Reporter
    ) -> [(order: [Int], thread: ReportThread)] {
        let fileRequests = Array(requests.filter(\.format.isFile).enumerated())
        let writesOnThreads = fileRequests.allSatisfy { _, request in
            guard let path = request.path, case .replacing = try? ReportDestination(path: path) else { return false }
            return true
        }
        let fileGroups = writesOnThreads
            ? [fileRequests.filter { $0.element.format == .messages }, fileRequests.filter { $0.element.format != .messages }]
            : [fileRequests]
        return fileGroups.filter { !$0.isEmpty }.map { group in
            (order: group.map(\.offset), thread: ReportThread(
                reporters: group.map { make($0.element) }, writesOnThread: writesOnThreads,
                replacing: group.compactMap(\.element.path)))
        }
    }

    /// One event of the run, to every report.
    func emit(_ event: RunEvent) {
        if !listsUnused, case .runFinished(var summary) = event {
            summary.unusedDefinitions = []
            return deliver(.runFinished(summary))
        }
        deliver(event)
    }

    private func deliver(_ event: RunEvent) {
        for index in reporters.indices { reporters[index].handle(event) }
        for report in fileReports { report.thread.send(event) }
        observe?(event)
    }

    /// Writes every report whole, then renames them all into place at once;
    /// returns what could not be written, in the order the reports were
    /// asked for. The file reports write theirs on their own threads, at the
    /// same time, once they have handled every event.
    func finish() -> [Diagnostic] {
        for report in fileReports { report.thread.close() }
        let batch = ReportBatch()
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
        problems += fileReports
            .flatMap { report in report.thread.finish(into: batch).map { (report.order[$0.reporter], $0.problem) } }
            .sorted { $0.0 < $1.0 }
            .map(\.1)
        PhaseTimer.mark("reports-written")
        return problems + batch.publish()
    }
}
