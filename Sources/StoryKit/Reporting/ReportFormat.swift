/// The reports storyrun writes, one row each: to add a report, add a case
/// here and a type that conforms to ``Reporter``.
enum ReportFormat: String, CaseIterable, Sendable {
    /// The terminal report: one line per story (the default).
    case summary
    /// A self-contained HTML page.
    case html
    /// Cucumber JSON.
    case json

    /// Whether the report goes to a file named after the option.
    var isFile: Bool {
        switch self {
        case .summary: false
        case .html, .json: true
        }
    }

    /// What the report is, for `--help`.
    var summary: String {
        switch self {
        case .summary: "one line per story, failures and totals (the default)"
        case .html: "a self-contained HTML page a customer can read"
        case .json: "Cucumber JSON, for Cucumber dashboards"
        }
    }

    /// Makes the reporter.
    func makeReporter(_ context: ReporterContext) -> any Reporter {
        switch self {
        case .summary: TextReporter(style: context.style, isVerbose: context.isVerbose, write: context.output)
        case .html: HTMLReporter(path: context.path ?? "report.html")
        case .json: CucumberJSONReporter(path: context.path ?? "report.json")
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
}

/// A report the command line asked for.
struct ReportRequest: Equatable {
    var format: ReportFormat
    /// The file for file reports; nil for terminal reports.
    var path: String?
}
