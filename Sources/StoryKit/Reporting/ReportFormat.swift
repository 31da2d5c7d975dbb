import Foundation

/// The reports storyrun writes, one row each: to add a report, add a case
/// here and a type that conforms to ``Reporter``.
enum ReportFormat: String, CaseIterable, Sendable {
    /// The terminal report: one line per story (the default).
    case summary
    /// The terminal report: one character per step.
    case progress
    /// The terminal report: every story and step as it finishes.
    case pretty
    /// GitHub Actions annotations on the terminal.
    case github
    /// Every step definition with the steps it ran and their durations.
    case usage
    /// A self-contained HTML page.
    case html
    /// Cucumber JSON.
    case json
    /// JUnit XML.
    case junit
    /// Cucumber Messages, as NDJSON.
    case messages
    /// The places of the failed stories, for the next run.
    case rerun
    /// Allure 2 results: a folder of `{uuid}-result.json` files.
    case allure

    /// Whether the report goes to a file named after the option.
    var isFile: Bool {
        switch self {
        case .summary, .progress, .pretty, .github, .usage: false
        case .html, .json, .junit, .messages, .rerun, .allure: true
        }
    }

    /// Whether the report reads the story files (their syntax trees) as
    /// well as the run's results.
    var readsStoryFiles: Bool {
        switch self {
        case .html, .json, .messages, .junit, .allure: true
        case .summary, .progress, .pretty, .github, .usage, .rerun: false
        }
    }

    /// Whether, of these reports, those that read story files read only
    /// the files that hold an outline's rows: JUnit alone reads a file
    /// only to name a row.
    static func readsOnlyRowFiles(_ formats: [ReportFormat]) -> Bool {
        formats.allSatisfy { $0 == .junit || !$0.readsStoryFiles }
    }

    /// What the report is, for `--help`.
    var summary: String {
        switch self {
        case .summary: "one line per story, failures and totals (the default)"
        case .progress: "one character per step, then failures and totals"
        case .pretty: "every story and step as it finishes"
        case .github: "GitHub Actions annotations (added when GITHUB_ACTIONS=true)"
        case .usage: "each step definition with its steps and durations, slowest first; then unused ones"
        case .html: "a self-contained HTML page a customer can read"
        case .json: "Cucumber JSON, for Cucumber dashboards"
        case .junit: "JUnit XML, for CI test reports"
        case .messages: "Cucumber Messages (NDJSON)"
        case .rerun: "path:line:line of the failed or undefined stories (and those not run)"
        case .allure: "Allure results, one {uuid}-result.json per story attempt"
        }
    }

    /// Makes the reporter.
    func makeReporter(_ context: ReporterContext) -> any Reporter {
        switch self {
        case .summary:
            return TextReporter(
                style: context.style, isVerbose: context.isVerbose, listsUnused: context.isWholeRun,
                listsLibraryUnused: context.listsLibraryUnused, write: context.output)
        case .progress: return ProgressReporter(style: context.style, write: context.output, writePartial: context.partialOutput)
        case .pretty:
            return PrettyReporter(
                style: context.style, isVerbose: context.isVerbose, listsUnused: context.isWholeRun,
                listsLibraryUnused: context.listsLibraryUnused, write: context.output)
        case .github:
            let summary = getenv("GITHUB_STEP_SUMMARY").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
            return GitHubReporter(summaryPath: summary, write: context.output)
        case .usage:
            return UsageReporter(
                style: context.style, definitions: context.definitions.map { ($0.pattern, $0.location) }, write: context.output)
        case .html:
            var reporter = HTMLReporter(path: context.path ?? "report.html")
            reporter.fileInfos = context.fileInfos.reader()
            return reporter
        case .json:
            var reporter = CucumberJSONReporter(path: context.path ?? "report.json")
            reporter.fileInfos = context.fileInfos.reader()
            reporter.groupLayouts = GroupLayouts(registry: context.registry)
            reporter.isStrict = context.isStrict
            return reporter
        case .junit:
            var reporter = JUnitReporter(path: context.path ?? "report.xml", isStrict: context.isStrict)
            reporter.fileInfos = context.fileInfos.reader()
            reporter.isDryRun = context.isDryRun
            reporter.writesPlaces = context.junitPlaces
            return reporter
        case .messages:
            var reporter = MessagesReporter(
                path: context.path ?? "report.ndjson", startTime: context.startTime, registry: context.registry, isStrict: context.isStrict)
            reporter.fileInfos = context.fileInfos.reader()
            reporter.isReversed = context.isReversed
            return reporter
        case .rerun: return RerunReporter(path: context.path ?? "rerun.txt", isStrict: context.isStrict)
        case .allure:
            var reporter = AllureReporter(directory: context.path ?? "allure-results")
            reporter.fileInfos = context.fileInfos.reader()
            return reporter
        }
    }
}

/// What a reporter needs to know when it is made.
struct ReporterContext {
    /// The file to write, for file reports.
    var path: String?
    /// How to colour terminal text.
    var style: TextStyle
    /// Whether `--verbose` is on.
    var isVerbose: Bool
    /// Where terminal lines go.
    var output: (String) -> Void
    /// Where terminal text without a line end goes, when the terminal takes it.
    var partialOutput: ((String) -> Void)? = nil
    /// The wall-clock time the run started.
    var startTime: Date = Date(timeIntervalSince1970: 0)
    /// Whether `--strict` is on: undefined stories fail the run, and JUnit
    /// must say so too.
    var isStrict = false
    /// Whether the run is a dry run (`--dry-run`), for reports that say why
    /// a story was skipped.
    var isDryRun = false
    /// The step definitions, hooks and parameter types of the run, for
    /// reports that list them all (Messages); nil in `merge`.
    var registry: StepRegistry? = nil
    /// Every step definition of the run, for reports that list unused ones.
    var definitions: [StepDefinition] = []
    /// The story files the reports read, shared by the reports of one
    /// run (make a new one for each run: files change between runs).
    var fileInfos = StoryFileInfo.Recent()
    /// Whether the run chose every story under its paths (no `PATH:LINE`,
    /// `--tags`, `--name` or `--shard`): only then is a list of unused
    /// step definitions news rather than noise.
    var isWholeRun = true
    /// Whether the stories run last first (`--order reverse`): Messages
    /// still lists the files and their pickles in the order they were read.
    var isReversed = false
    /// Whether that list includes step libraries' definitions
    /// (`--show-library-unused`).
    var listsLibraryUnused = false
    /// Whether JUnit test cases get `file` and `line` attributes (`--junit-places`).
    var junitPlaces = false
}

/// A report the command line asked for.
struct ReportRequest: Equatable {
    var format: ReportFormat
    /// The file for file reports; nil for terminal reports.
    var path: String?
}
