import Foundation

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
        /// Match every step without running any; list undefined and
        /// ambiguous steps and unused definitions.
        case check
        /// Show every definition that matches each step line given.
        case explain
        /// Run stories a parent process names on standard input.
        case worker
        /// Print the stories the files compile to, as Cucumber pickles.
        case pickles
        /// Try a regex or Cucumber Expression on a step text.
        case match(MatchCommand.Syntax, pattern: String, text: String)
        /// Serve the Language Server Protocol over standard input and output.
        case lsp
        /// List the step definitions and parameter types (`--json`: as JSON).
        case definitions(json: Bool)
        /// List the Gherkin languages (`--i18n-languages`).
        case i18nLanguages
        /// List one Gherkin language's keywords (`--i18n-keywords LANG`).
        case i18nKeywords(String)
    }

    var command: Command = .run
    var paths: [String] = []
    /// The reports to write; the terminal summary when no terminal format is named.
    var reports: [ReportRequest] = []
    var isDryRun = false
    var isStrict = false
    var isVerbose = false
    /// Whether unused step-library definitions are listed too.
    var listsLibraryUnused = false
    var isColorDisabled = false
    var isFailFast = false
    /// `--name REGEX`, each given: a story runs when any of them matches
    /// its name (as Cucumber ORs repeated `--name`).
    var namePatterns: [String] = []
    /// `--tags EXPRESSION`, each given: a story runs when all of them match
    /// its tags (as Cucumber ANDs repeated `--tags`).
    var tagExpressions: [String] = []
    var shard: Shard?
    var order: StoryOrder = .defined
    var retries = 0
    /// How many worker processes run stories (one when 0).
    var jobs = 0
    /// Whether stories run in this process, for debuggers (`--in-process`).
    var isInProcess = false
    /// The most seconds a step may run.
    var stepTimeout: Double = 60
    /// How snippets for undefined steps write their pattern (`--snippets`).
    var snippetStyle: Snippet.Style = .regex
    /// A rerun file (`@FILE`) that named no story: with no other path,
    /// there is nothing to rerun.
    var emptyRerunFile: String?
    /// The rerun files (`@FILE`) that named stories: their stories run
    /// whatever `--shard` says (see ``StorySelection/make(_:)``).
    var rerunFiles: [String] = []
    /// What those files name (`path:line`), as given.
    var rerunEntries: [String] = []
    /// User parameters (`-D key=value`, and the config's `parameters`).
    var parameters: [String: String] = [:]
    /// A previous run's Cucumber JSON, to balance `--shard` by (`--timings`).
    var timingsPath: String?
    /// The config file named with `--config`; else `storyrun.json` when the
    /// current folder has one.
    var configPath: String?
    /// The config's profiles to apply, in order (`--profile NAME`).
    var profiles: [String] = []
    /// Where `--shard` came from when the command line did not give it
    /// (`CI_NODE_INDEX`/`CI_NODE_TOTAL`), for the line the run prints.
    var shardSource: String?

    /// Watch mode (`--watch`): run, then run again on every save; nil
    /// when not watching.
    var watch: WatchSettings?

    /// Parses the arguments after the executable's name, without a config
    /// file (``load(arguments:directory:environment:)`` reads one).
    /// - Throws: A ``Diagnostic`` for an unknown option or a missing value.
    init(arguments: [String]) throws(Diagnostic) {
        guard let remaining = try parseCommand(arguments) else { return }
        try apply(remaining)
        try validate()
    }

    /// Reads a leading command word (`check`, `explain`, `lsp`…); returns
    /// the arguments left to apply, or nil when the command takes no options.
    mutating func parseCommand(_ arguments: [String]) throws(Diagnostic) -> ArraySlice<String>? {
        var remaining = arguments[...]
        switch remaining.first {
        case "check", "lint": command = .check; remaining.removeFirst()
        case "explain": command = .explain; remaining.removeFirst()
        case "lsp":
            // Editors pass options such as --stdio; stdio is the only transport.
            command = .lsp
            return nil
        case "definitions":
            if remaining.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
                command = .help
                return nil
            }
            if let other = remaining.dropFirst().first(where: { $0 != "--json" }) {
                throw Diagnostic(at: nil, problem: "definitions takes no \(other)", help: "write `\(Self.executableName) definitions` or `\(Self.executableName) definitions --json`")
            }
            command = .definitions(json: remaining.contains("--json"))
            return nil
        case "match":
            let (syntax, pattern, text) = try MatchCommand.parse(remaining.dropFirst())
            command = .match(syntax, pattern: pattern, text: text)
            return nil
        default: break
        }
        return remaining
    }

    /// Applies options over those already set. With `overridesEarlier`
    /// (the command line over a config file) the first path replaces the
    /// earlier paths, the first terminal format the earlier terminal
    /// formats, and a file report the earlier report of its format.
    mutating func apply(_ arguments: ArraySlice<String>, overridesEarlier: Bool = false) throws(Diagnostic) {
        var remaining = arguments
        var replacesPaths = overridesEarlier
        var replacesTerminal = overridesEarlier
        // The command line's first --tags (--name) replaces the config's.
        var replacesTags = overridesEarlier
        var replacesNames = overridesEarlier
        var replacedFormats: Set<ReportFormat> = []
        func addPaths(_ more: [String]) {
            if replacesPaths {
                paths = []
                emptyRerunFile = nil
                rerunFiles = []
                replacesPaths = false
            }
            paths += more
        }
        func addReport(_ request: ReportRequest) {
            if request.format.isFile {
                if overridesEarlier, replacedFormats.insert(request.format).inserted {
                    reports.removeAll { $0.format == request.format }
                }
            } else if replacesTerminal {
                reports.removeAll { !$0.format.isFile }
                replacesTerminal = false
            }
            reports.append(request)
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help": command = .help
            case "--check": command = .check
            case "--worker": command = .worker
            case "--isolate": jobs = max(jobs, 1)
            case "--in-process": isInProcess = true
            case "--jobs", "-j":
                jobs = try Self.jobs(Self.value(for: argument, from: &remaining))
            case "--version": command = .version
            case "--format", "-f":
                let name = try Self.value(for: argument, from: &remaining)
                if name == "pickles" {
                    command = .pickles
                    continue
                }
                guard let format = ReportFormat(rawValue: name), !format.isFile else {
                    throw Diagnostic(at: nil, problem: "unknown format \(name)", help: "use one of: \(Self.terminalFormats)")
                }
                addReport(ReportRequest(format: format))
            case "--dry-run": isDryRun = true
            case "--strict": isStrict = true
            case "-v", "--verbose": isVerbose = true
            case "--show-library-unused": listsLibraryUnused = true
            case "--no-color": isColorDisabled = true
            case "--fail-fast": isFailFast = true
            case "--name":
                let pattern = try Self.value(for: argument, from: &remaining)
                if replacesNames { namePatterns = [] }
                replacesNames = false
                namePatterns.append(pattern)
            case "--tags", "-t":
                let expression = try Self.value(for: argument, from: &remaining)
                if replacesTags { tagExpressions = [] }
                replacesTags = false
                tagExpressions.append(expression)
            case "--shard":
                shard = try Self.shard(Self.value(for: argument, from: &remaining))
            case "--order":
                let value = try Self.value(for: argument, from: &remaining)
                guard let order = StoryOrder(value) else {
                    throw Diagnostic(at: nil, problem: "--order \(value) is not an order", help: "write --order defined, --order random or --order random:SEED")
                }
                self.order = order
            case "--retry":
                retries = try Self.retries(Self.value(for: argument, from: &remaining))
            case "--step-timeout":
                stepTimeout = try Self.stepTimeout(Self.value(for: argument, from: &remaining))
            case "-D", "--define":
                let (key, value) = try Self.parameter(Self.value(for: argument, from: &remaining))
                parameters[key] = value
            case let define where define.hasPrefix("-D") && define.count > 2:
                let (key, value) = try Self.parameter(String(define.dropFirst(2)))
                parameters[key] = value
            case "--config": configPath = try Self.value(for: argument, from: &remaining)
            case "--profile": profiles.append(try Self.value(for: argument, from: &remaining))
            case "--timings": timingsPath = try Self.value(for: argument, from: &remaining)
            case "--i18n-languages": command = .i18nLanguages
            case "--i18n-keywords": command = .i18nKeywords(try Self.value(for: argument, from: &remaining))
            case "--watch": watch = watch ?? WatchSettings()
            case "--watch-poll": watch = (watch ?? WatchSettings()).polling()
            case "--watch-sources":
                watch = (watch ?? WatchSettings()).sources(try Self.value(for: argument, from: &remaining))
            case "--snippets":
                let value = try Self.value(for: argument, from: &remaining)
                guard let style = Snippet.Style(rawValue: value) else {
                    throw Diagnostic(at: nil, problem: "--snippets \(value) is not a snippet style", help: "write --snippets regex (the default) or --snippets expression")
                }
                snippetStyle = style
            case "--": addPaths(Array(remaining)); remaining = []
            default:
                if let format = ReportFormat.allCases.first(where: { $0.isFile && "--\($0.rawValue)" == argument }) {
                    addReport(ReportRequest(format: format, path: try Self.value(for: argument, from: &remaining)))
                } else if argument.hasPrefix("-") && argument.count > 1 {
                    throw Self.unknown(argument)
                } else if argument.hasPrefix("@") && argument.count > 1 {
                    let entries = try Self.rerunList(String(argument.dropFirst()))
                    addPaths(entries)
                    if entries.isEmpty { emptyRerunFile = String(argument.dropFirst()) } else { rerunFiles.append(String(argument.dropFirst())) }
                    rerunEntries += entries
                } else {
                    addPaths([argument])
                }
            }
        }
    }

    /// Checks what no single option can: report paths, a `PATH` to run,
    /// and adds the terminal summary when no terminal format is named.
    mutating func validate() throws(Diagnostic) {
        try Self.checkReportPaths(reports)
        if !reports.contains(where: { !$0.format.isFile }) {
            reports.insert(ReportRequest(format: .summary), at: 0)
        }
        if command == .explain && paths.isEmpty {
            throw Diagnostic(at: nil, problem: "explain needs a step line", help: "write \(Self.executableName) explain \"When I add 3 apples to the basket\"")
        }
        if command == .run, watch != nil, paths.isEmpty { paths = WatchSettings.defaultPaths }
        if (command == .run || command == .check || command == .pickles) && paths.isEmpty && emptyRerunFile == nil {
            throw Diagnostic(at: nil, problem: "no story files or folders given", help: "run `\(Self.executableName) Stories/`, or see `\(Self.executableName) --help`")
        }
    }

    init() {}

    private static let known = [
        "--help", "--version", "--format", "--dry-run", "--strict", "--verbose", "--no-color", "--check",
        "--fail-fast", "--name", "--tags", "--shard", "--order", "--retry", "--step-timeout", "--jobs", "--isolate",
        "--in-process", "--define", "--config", "--profile", "--timings", "--i18n-languages", "--i18n-keywords",
        "--watch", "--watch-poll", "--watch-sources", "--snippets", "--show-library-unused",
    ]
        + ReportFormat.allCases.filter(\.isFile).map { "--\($0.rawValue)" }

    private static var terminalFormats: String {
        ReportFormat.allCases.filter { !$0.isFile }.map(\.rawValue).joined(separator: ", ")
    }

    /// The options a worker process needs to run stories as this run would.
    var workerArguments: [String] {
        var arguments = ["--step-timeout", String(stepTimeout), "--retry", String(retries)]
        if isStrict { arguments.append("--strict") }
        if isDryRun { arguments.append("--dry-run") }
        for key in parameters.keys.sorted() { arguments += ["-D", "\(key)=\(parameters[key]!)"] }
        if snippetStyle != .regex { arguments += ["--snippets", snippetStyle.rawValue] }
        return arguments
    }

    /// Reads a rerun file: one `PATH:LINE:LINE…` a line, as `--rerun` writes.
    private static func rerunList(_ path: String) throws(Diagnostic) -> [String] {
        let data: [UInt8]
        switch RegularFile.read(at: path) {
        case .success(let bytes): data = bytes
        case .failure(.notRegular(let kind)):
            throw Diagnostic(at: nil, problem: "the rerun file \(path) is \(kind), not a regular file", help: "name the file a --rerun report wrote")
        case .failure:
            throw Diagnostic(at: nil, problem: "cannot read the rerun file \(path)", help: "write it with --rerun \(path) in an earlier run")
        }
        return RerunReporter.entries(in: String(decoding: data, as: UTF8.self), exists: StoryPath.exists)
    }

    private static func value(for option: String, from remaining: inout ArraySlice<String>) throws(Diagnostic) -> String {
        guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
            throw Diagnostic(at: nil, problem: "\(option) needs a value", help: "write \(option) FILE")
        }
        return value
    }

    private static func unknown(_ option: String) -> Diagnostic {
        let guess = known.min { option.editDistance(to: $0) < option.editDistance(to: $1) }
        let limit = max(1, option.count / 4)
        let suggestion = guess.flatMap { option.editDistance(to: $0) <= limit ? "did you mean \($0)? " : nil } ?? ""
        return Diagnostic(at: nil, problem: "unknown option \(option)", help: "\(suggestion)see `\(Self.executableName) --help`")
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
        return usageHead.replacingOccurrences(of: "storyrun", with: executableName) + files.joined(separator: "\n") + "\n  -f, --format NAME  the terminal report, one of:\n" + terminal.joined(separator: "\n")
            + "\n      pickles     print the compiled stories as Cucumber pickles (NDJSON), run nothing\n" + usageTail
    }

    /// The name the user runs: `storyrun`, or their own executable's name.
    static let executableName: String = {
        let name = CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "storyrun"
        return name.hasSuffix("xctest") || name.hasPrefix("swift") || name.isEmpty ? "storyrun" : name
    }()

    private static let usageHead = """
        USAGE: storyrun [options] PATH...
               storyrun check PATH...             (or --check) match, run nothing; list problems
               storyrun explain "STEP LINE"...    which definitions match a step line, and why
               storyrun match --regex PATTERN TEXT | --expression EXPRESSION TEXT
               storyrun merge IN.json... [--strict] [--html FILE] [--junit FILE] [--json FILE]
               storyrun definitions [--json]      every step definition and parameter type
               storyrun lsp                       a language server for editors (stdio)

        Runs the stories in .stories and .feature files (folders are searched
        recursively) and reports, story by story, what passed and what failed.

        OPTIONS:

        """

    private static let usageTail = """
          --dry-run       match every step, run none; report undefined and ambiguous steps
          PATH:LINE       run only the stories that line belongs to (as Cucumber does)
          @FILE           run the PATH:LINE:LINE list a --rerun report wrote (one file a
                          line), whatever --shard says
          --name REGEX    run only stories whose name matches (repeated: any of them)
          -t, --tags EXPR run only stories whose tags match, e.g. "@smoke and not @wip"
                          (repeated: all of them)
          --shard I/N     run the I-th of N stable shards (for CI matrices; GitLab's
                          CI_NODE_INDEX and CI_NODE_TOTAL give it when it is not given)
          --timings FILE  balance --shard by the story durations in FILE, a --json
                          report of an earlier run
          -D KEY=VALUE    a user parameter steps and hooks read: StoryRun.parameters["KEY"]
          --config FILE   read options from FILE (default: storyrun.json, if there is one)
          --profile NAME  apply the config's profile NAME (repeatable); the command line wins
          --order ORDER   defined (default), random or random:SEED
          -j, --jobs N    run stories in up to N worker processes (default 1); at most
                          64 (4 a core past 16 cores) and what `ulimit -n` allows
          --in-process    run step code in this process, for a debugger: a crash, exit()
                          or hang in a step then ends the run (see README, Worker processes)
          --fail-fast     stop after the first failing story
          --watch         run, then again on every save: a story file's stories at once,
                          a Swift source rebuilds and restarts (README, Watch mode)
          --watch-sources DIR  the Swift sources --watch rebuilds on (default ./Sources)
          --watch-poll    look for changes every 0.5 s instead of with inotify
          --retry N       run a failing story up to N (at most 100) more times; passing late is "flaky"
          --step-timeout S  fail a step that runs longer than S seconds (default 60, at most 86400)
          --strict        fail ambiguous steps, and exit 1 when a story is undefined or pending
          --snippets STYLE  snippets for undefined steps: regex (default) or expression ({int})
          -v, --verbose   list every step with the definition it matched
          --show-library-unused  list step libraries' unused definitions too (after a run, in check)
          --no-color      no colour (also when NO_COLOR is set or output is not a terminal)
          --i18n-languages        list the Gherkin languages .feature files may use
          --i18n-keywords LANG    list the Gherkin keywords of LANG (e.g. fr)
          --version       print the version
          -h, --help      print this help

        EXIT STATUS:
          0 every story passed; 1 a story failed (or was undefined or ambiguous
          under --strict); 2 the command line, a story file or a step definition
          was rejected.
        """
}
