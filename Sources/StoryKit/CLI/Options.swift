/// The command line of `storyrun` (and of every user executable that hands
/// its step classes to ``StoryRun``), parsed.
struct Options: Equatable {
    /// What the command does.
    enum Command: Equatable {
        /// Run the stories under the paths.
        case run
        /// Print the usage.
        case help
        /// Print the version.
        case version
    }

    var command: Command = .run
    var paths: [String] = []
    /// The reports to write; the terminal summary when no terminal format is named.
    var reports: [ReportRequest] = []
    var isDryRun = false
    var isStrict = false
    var isVerbose = false
    var isColorDisabled = false

    /// Parses the arguments after the executable's name.
    /// - Throws: A ``Diagnostic`` for an unknown option or a missing value.
    init(arguments: [String]) throws(Diagnostic) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": command = .help
            case "--version": command = .version
            case "--format", "-f":
                let name = try Self.value(for: argument, from: &remaining)
                guard let format = ReportFormat(rawValue: name), !format.isFile else {
                    throw Diagnostic(at: nil, problem: "unknown format \(name)", help: "use one of: \(Self.terminalFormats)")
                }
                reports.append(ReportRequest(format: format))
            case "--dry-run": isDryRun = true
            case "--strict": isStrict = true
            case "-v", "--verbose": isVerbose = true
            case "--no-color": isColorDisabled = true
            case "--": paths += remaining; remaining = []
            default:
                if let format = ReportFormat.allCases.first(where: { $0.isFile && "--\($0.rawValue)" == argument }) {
                    reports.append(ReportRequest(format: format, path: try Self.value(for: argument, from: &remaining)))
                } else if argument.hasPrefix("-") && argument.count > 1 {
                    throw Self.unknown(argument)
                } else {
                    paths.append(argument)
                }
            }
        }
        if !reports.contains(where: { !$0.format.isFile }) {
            reports.insert(ReportRequest(format: .summary), at: 0)
        }
        if command == .run && paths.isEmpty {
            throw Diagnostic(at: nil, problem: "no story files or folders given", help: "run `storyrun Stories/`, or see `storyrun --help`")
        }
    }

    init() {}

    private static let known = ["--help", "--version", "--format", "--dry-run", "--strict", "--verbose", "--no-color"]
        + ReportFormat.allCases.filter(\.isFile).map { "--\($0.rawValue)" }

    private static var terminalFormats: String {
        ReportFormat.allCases.filter { !$0.isFile }.map(\.rawValue).joined(separator: ", ")
    }

    private static func value(for option: String, from remaining: inout ArraySlice<String>) throws(Diagnostic) -> String {
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
            throw Diagnostic(at: nil, problem: "\(option) needs a value", help: "write \(option) FILE")
        }
        return value
    }

    private static func unknown(_ option: String) -> Diagnostic {
        let guess = known.min { option.editDistance(to: $0) < option.editDistance(to: $1) }
        let suggestion = guess.flatMap { option.editDistance(to: $0) <= 3 ? "did you mean \($0)? " : nil } ?? ""
        return Diagnostic(at: nil, problem: "unknown option \(option)", help: "\(suggestion)see `storyrun --help`")
    }

    /// The usage text.
    static var usage: String {
        let files = ReportFormat.allCases.filter(\.isFile).map {
            let option = "  --\($0.rawValue) FILE"
            return option.padding(toLength: max(18, option.count + 1), withPad: " ", startingAt: 0) + "also write \($0.summary)"
        }
        let terminal = ReportFormat.allCases.filter { !$0.isFile }.map {
            "      \($0.rawValue)".padding(toLength: 18, withPad: " ", startingAt: 0) + $0.summary
        }
        return usageHead + files.joined(separator: "\n") + "\n  -f, --format NAME  the terminal report, one of:\n" + terminal.joined(separator: "\n") + "\n" + usageTail
    }

    private static let usageHead = """
        USAGE: storyrun [options] PATH...
               storyrun merge IN.json... [--html FILE] [--junit FILE] [--json FILE]

        Runs the stories in .stories and .feature files (folders are searched
        recursively) and reports, story by story, what passed and what failed.

        OPTIONS:

        """

    private static let usageTail = """
          --dry-run       match every step, run none; report undefined and ambiguous steps
          --strict        fail ambiguous steps, and exit 1 when a story is undefined
          -v, --verbose   list every step with the definition it matched
          --no-color      no colour (also when NO_COLOR is set or output is not a terminal)
          --version       print the version
          -h, --help      print this help

        EXIT STATUS:
          0 every story passed; 1 a story failed (or was undefined or ambiguous
          under --strict); 2 the command line, a story file or a step definition
          was rejected.
        """
}
