import Foundation

/// Every option of a run, declared once (see ``OptionDeclaration``), in the
/// order the usage text lists them.
extension Options {
    /// The options, in usage order: the file reports, then the rest.
    static let declarations: [OptionDeclaration] = reportDeclarations + formatDeclarations + selectionDeclarations
        + runDeclarations + outputDeclarations + commandDeclarations

    /// The declaration of each name, `--jobs` and `-j` alike.
    static let declarationsByName = OptionDeclaration.byName(declarations)

    /// `--html FILE`, `--junit FILE`…: one for each file report.
    static var reportDeclarations: [OptionDeclaration] {
        ReportFormat.allCases.filter(\.isFile).map { format in
            OptionDeclaration(
                ["--\(format.rawValue)"], value: format == .allure ? "DIR" : "FILE", help: ["also write \(format.summary)"], config: .value
            ) {
                parsing, path throws(Diagnostic) in
                try parsing.addReport(ReportRequest(format: format, path: Options.reportPath(path, for: format)))
            }
        }
    }

    /// Checks a report's path: an empty one names no file, and a run that
    /// would write it only to fail at the end is stopped before it starts.
    static func reportPath(_ path: String, for format: ReportFormat) throws(Diagnostic) -> String {
        guard !path.isEmpty else {
            throw Diagnostic(at: nil, problem: "--\(format.rawValue) '' names no file", help: "write --\(format.rawValue) FILE")
        }
        var isFolder: ObjCBool = false
        if format == .allure, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
            throw Diagnostic(
                at: nil, problem: "--allure \(path) is a file, not a folder",
                help: "name a folder for the results (made if it is not there), e.g. --allure allure-results")
        }
        return path
    }

    private static var formatDeclarations: [OptionDeclaration] {
        let terminal = ReportFormat.allCases.filter { !$0.isFile }.map {
            "      \($0.rawValue)".padding(toLength: 18, withPad: " ", startingAt: 0) + $0.summary
        }
        let format = OptionDeclaration(
            ["--format", "-f"], value: "NAME", help: ["the terminal report, one of:"], config: .values
        ) { parsing, name throws(Diagnostic) in
            if name == "pickles" {
                parsing.options.command = .pickles
                return
            }
            guard let format = ReportFormat(rawValue: name), !format.isFile else {
                throw Diagnostic(at: nil, problem: "unknown format \(name)", help: "use one of: \(Options.terminalFormats)")
            }
            parsing.addReport(ReportRequest(format: format))
        }
        var declaration = format
        declaration.details = terminal + ["      pickles     print the compiled stories as Cucumber pickles (NDJSON), run nothing"]
        return [declaration]
    }

    private static var selectionDeclarations: [OptionDeclaration] {
        [
            .flag(["--dry-run"], help: ["match every step, run none; report undefined and ambiguous steps"], config: true, forward: \.isDryRun) {
                $0.isDryRun = true
            },
            .note("PATH:LINE", help: ["run only the stories that line belongs to (as Cucumber does)"]),
            .note("@FILE", help: ["run the PATH:LINE:LINE list a --rerun report wrote (one file a", "line), whatever --shard says"]),
            OptionDeclaration(["--name"], value: "REGEX", help: ["run only stories whose name matches (repeated: any of them)"], config: .values) {
                parsing, pattern in parsing.addName(pattern)
            },
            OptionDeclaration(
                ["--tags", "-t"], value: "EXPR", help: ["run only stories whose tags match, e.g. \"@smoke and not @wip\"", "(repeated: all of them)"],
                config: .values
            ) { parsing, expression in parsing.addTags(expression) },
            OptionDeclaration(
                ["--shard"], value: "I/N",
                help: [
                    "run the I-th of N stable shards (for CI matrices; GitLab's,", "Buildkite's, CircleCI's and Kubernetes' variables give it when",
                    "it is not given)",
                ],
                config: .value
            ) { parsing, value throws(Diagnostic) in parsing.options.shard = try Options.shard(value) },
            OptionDeclaration(
                ["--timings"], value: "FILE", help: ["balance --shard by the story durations in FILE, a --json", "report of an earlier run"],
                config: .value
            ) { parsing, path in parsing.options.timingsPath = path },
            OptionDeclaration(
                ["-D", "--define"], value: "KEY=VALUE", help: ["a user parameter steps and hooks read: StoryRun.parameters[\"KEY\"]"],
                config: .parameters, key: "parameters",
                forward: { options in options.parameters.keys.sorted().flatMap { ["-D", "\($0)=\(options.parameters[$0]!)"] } }
            ) { parsing, text throws(Diagnostic) in
                let (key, value) = try Options.parameter(text)
                parsing.options.parameters[key] = value
            }.attachingValue(),
            OptionDeclaration(["--config"], value: "FILE", help: ["read options from FILE (default: storyrun.json, if there is one)"]) {
                parsing, path in parsing.options.configPath = path
            },
            OptionDeclaration(["--profile"], value: "NAME", help: ["apply the config's profile NAME (repeatable); the command line wins"]) {
                parsing, name in parsing.options.profiles.append(name)
            },
            OptionDeclaration(["--order"], value: "ORDER", help: ["defined (default), reverse, random or random:SEED"], config: .value) {
                parsing, value throws(Diagnostic) in
                guard let order = StoryOrder(value) else {
                    throw Diagnostic(at: nil, problem: "--order \(value) is not an order", help: "write --order defined, --order reverse, --order random or --order random:SEED")
                }
                parsing.options.order = order
            },
        ]
    }

    private static var runDeclarations: [OptionDeclaration] {
        [
            OptionDeclaration(
                ["--jobs", "-j"], value: "N",
                help: ["run stories in up to N worker processes (default 1); at most", "64 (4 a core past 16 cores) and what `ulimit -n` allows"],
                config: .value
            ) { parsing, value throws(Diagnostic) in parsing.options.jobs = try Options.jobs(value) },
            .flag(
                ["--in-process"],
                help: ["run step code in this process, for a debugger: a crash, exit()", "or hang in a step then ends the run (see README, Worker processes)"],
                config: true
            ) { $0.isInProcess = true },
            .flag(["--fail-fast"], help: ["stop after the first failing story"], config: true) { $0.isFailFast = true },
            .flag(["--show-library-unused"], help: ["list step libraries' unused definitions too (after a run, in check)"], config: true) {
                $0.listsLibraryUnused = true
            },
            .flag(
                ["--junit-places"],
                help: ["give each --junit testcase file and line attributes (GitHub's JUnit", "actions read them; the strict JUnit 4 schema has no place for them)"],
                config: true
            ) { $0.junitPlaces = true },
            .flag(["--watch"], help: ["run, then again on every save: a story file's stories at once,", "a Swift source rebuilds and restarts (README, Watch mode)"]) {
                $0.watch = $0.watch ?? WatchSettings()
            },
            OptionDeclaration(["--watch-sources"], value: "DIR", help: ["the Swift sources --watch rebuilds on (default ./Sources)"]) {
                parsing, folder in parsing.options.watch = (parsing.options.watch ?? WatchSettings()).sources(folder)
            },
            .flag(["--watch-poll"], help: ["look for changes every 0.5 s instead of with inotify"]) {
                $0.watch = ($0.watch ?? WatchSettings()).polling()
            },
            OptionDeclaration(
                ["--retry"], value: "N", help: ["run a failing story up to N (at most 100) more times; passing late is \"flaky\""], config: .value,
                forward: { ["--retry", String($0.retries)] }
            ) { parsing, value throws(Diagnostic) in parsing.options.retries = try Options.retries(value) },
            OptionDeclaration(
                ["--step-timeout"], value: "S", help: ["fail a step that runs longer than S seconds (default 60, at most 86400)"], config: .value,
                forward: { ["--step-timeout", String($0.stepTimeout)] }
            ) { parsing, value throws(Diagnostic) in parsing.options.stepTimeout = try Options.stepTimeout(value) },
            .flag(
                ["--strict"], help: ["fail ambiguous steps, and exit 1 when a story is undefined or pending"], config: true, forward: \.isStrict
            ) { $0.isStrict = true },
            OptionDeclaration(
                ["--snippets"], value: "STYLE", help: ["snippets for undefined steps: regex (default) or expression ({int})"],
                forward: { $0.snippetStyle == .regex ? [] : ["--snippets", $0.snippetStyle.rawValue] }
            ) { parsing, value throws(Diagnostic) in
                guard let style = Snippet.Style(rawValue: value) else {
                    throw Diagnostic(
                        at: nil, problem: "--snippets \(value) is not a snippet style", help: "write --snippets regex (the default) or --snippets expression")
                }
                parsing.options.snippetStyle = style
            },
        ]
    }

    private static var outputDeclarations: [OptionDeclaration] {
        [
            .flag(["--verbose", "-v"], help: ["list every step with the definition it matched"], config: true) { $0.isVerbose = true },
            .flag(["--no-color"], help: ["no colour (also when NO_COLOR is set or output is not a terminal)"], config: true) {
                $0.isColorDisabled = true
            },
        ]
    }

    private static var commandDeclarations: [OptionDeclaration] {
        [
            .flag(["--i18n-languages"], help: ["list the Gherkin languages .feature files may use"]) { $0.command = .i18nLanguages },
            OptionDeclaration(["--i18n-keywords"], value: "LANG", help: ["list the Gherkin keywords of LANG (e.g. fr)"]) {
                parsing, language in parsing.options.command = .i18nKeywords(language)
            },
            .flag(["--version"], help: ["print the version"]) { $0.command = .version },
            .flag(["--help", "-h"], help: ["print this help"]) { $0.command = .help },
            // For storyrun's own use, or said elsewhere in the usage.
            .flag(["--check"], help: []) { $0.command = .check },
            .flag(["--worker"], help: []) { $0.command = .worker },
            .flag(["--isolate"], help: []) { $0.jobs = max($0.jobs, 1) },
            OptionDeclaration(["--"], help: []) { parsing, _ in
                parsing.addPaths(Array(parsing.remaining))
                parsing.remaining = []
            },
        ]
    }

    static var terminalFormats: String {
        ReportFormat.allCases.filter { !$0.isFile }.map(\.rawValue).joined(separator: ", ")
    }
}
