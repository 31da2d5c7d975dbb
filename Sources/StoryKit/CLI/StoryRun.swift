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
    public static func main(steps: [any StepDefinitions.Type]) async -> Never {
        let environment = ProcessInfo.processInfo.environment
        let isTerminal = isatty(STDOUT_FILENO) == 1
        let status = await run(
            arguments: Array(CommandLine.arguments.dropFirst()), steps: steps,
            style: environment["NO_COLOR"] == nil && isTerminal ? .ansi : .plain,
            isGitHubActions: environment["GITHUB_ACTIONS"] == "true",
            startTime: Date(),
            output: { print($0) },
            partialOutput: isTerminal ? { print($0, terminator: ""); fflush(nil) } : nil)
        exit(status.rawValue)
    }

    /// Runs the command line and returns its exit status.
    /// - Parameters:
    ///   - arguments: The arguments after the executable's name.
    ///   - steps: The step classes to register, in order.
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
        arguments: [String], steps: [any StepDefinitions.Type], style: TextStyle = .plain,
        isGitHubActions: Bool = false,
        clock: @escaping @Sendable () -> UInt64 = { DispatchTime.now().uptimeNanoseconds },
        startTime: Date = Date(),
        output: @escaping (String) -> Void,
        partialOutput: ((String) -> Void)? = nil
    ) async -> ExitStatus {
        if arguments.first == "merge" {
            return MergeCommand.run(arguments: Array(arguments.dropFirst()), output: output)
        }
        var options: Options
        do {
            options = try Options(arguments: arguments)
        } catch {
            output(error.rendered(style: style))
            return .inputError
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
        case .run:
            let context = ReporterContext(
                style: options.isColorDisabled ? .plain : style, isVerbose: options.isVerbose,
                output: output, partialOutput: partialOutput, startTime: startTime)
            return await runStories(options, steps: steps, context: context, clock: clock)
        }
    }

    private static func runStories(
        _ options: Options, steps: [any StepDefinitions.Type], context: ReporterContext,
        clock: @escaping @Sendable () -> UInt64
    ) async -> ExitStatus {
        let style = context.style
        let output = context.output
        let builder = RegistryBuilder()
        builder.register(steps)
        guard builder.diagnostics.isEmpty else {
            for diagnostic in builder.diagnostics { output(diagnostic.rendered(style: style)) }
            output("storyrun: no story was run: \(builder.diagnostics.count) step definition\(builder.diagnostics.count == 1 ? " was" : "s were") rejected")
            return .inputError
        }
        let registry = builder.freeze()
        let (stories, inputDiagnostics) = StoryLoader.load(paths: options.paths)

        var context = context
        var liveLine: TerminalLine?
        if let partial = context.partialOutput, context.style == .ansi,
           !options.reports.contains(where: { $0.format == .progress }) {
            let line = TerminalLine(writePartial: partial, writeLine: context.output)
            context.output = line.write
            liveLine = line
        }
        var reporters: [any Reporter] = options.reports.map { request in
            var context = context
            context.path = request.path
            return request.format.makeReporter(context)
        }
        if let liveLine {
            reporters.insert(LiveStatusReporter(line: liveLine, style: context.style, now: clock), at: 0)
        }
        func emit(_ event: RunEvent) {
            for index in reporters.indices { reporters[index].handle(event) }
        }
        for diagnostic in inputDiagnostics { emit(.diagnostic(diagnostic)) }

        let runner = Runner(
            registry: registry,
            configuration: .init(isStrict: options.isStrict, isDryRun: options.isDryRun), now: clock)
        let summary = await runner.run(stories, emit: emit)

        var status: ExitStatus = summary.hasFailures(strict: options.isStrict) ? .storyFailed : .success
        for index in reporters.indices {
            do {
                try reporters[index].finish()
            } catch {
                output((error as? Diagnostic ?? Diagnostic(at: nil, problem: "\(error)")).rendered(style: style))
                status = .inputError
            }
        }
        let rejected = inputDiagnostics.filter(\.isError).count
        if rejected > 0 {
            output("storyrun: \(rejected) problem\(rejected == 1 ? "" : "s") in the input (above); the stories they are in did not run")
            status = .inputError
        }
        return status
    }
}
