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
        /// Merge the records of several runs (`storyrun merge`), with its
        /// arguments.
        case merge([String])
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
    /// Whether JUnit test cases get `file` and `line` attributes (`--junit-places`).
    var junitPlaces = false
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
    /// (a CI's variables, ``ShardVariables``), for the line the run prints.
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

    /// Applies options over those already set. With `overridesEarlier`
    /// (the command line over a config file) the first path replaces the
    /// earlier paths, the first terminal format the earlier terminal
    /// formats, and a file report the earlier report of its format. Each
    /// option does what its declaration (``declarations``) says.
    mutating func apply(_ arguments: ArraySlice<String>, overridesEarlier: Bool = false) throws(Diagnostic) {
        var parsing = Parsing(options: self, remaining: arguments, overridesEarlier: overridesEarlier)
        while let argument = parsing.remaining.popFirst() {
            if try parsing.readOption(argument, from: Self.declarationsByName) {
                continue
            } else if let attached = Self.attachedValue(argument) {
                try attached.declaration.apply(&parsing, attached.value)
            } else if argument.hasPrefix("-") && argument.count > 1 {
                throw Self.unknown(argument)
            } else if argument.hasPrefix("@") && argument.count > 1 {
                let file = String(argument.dropFirst())
                let entries = try Self.rerunList(file)
                parsing.addPaths(entries)
                if entries.isEmpty { parsing.options.emptyRerunFile = file } else { parsing.options.rerunFiles.append(file) }
                parsing.options.rerunEntries += entries
            } else {
                parsing.addPaths([argument])
            }
        }
        self = parsing.options
    }

    /// An option written with its value attached (`-Dkey=value`).
    private static func attachedValue(_ argument: String) -> (declaration: OptionDeclaration, value: String)? {
        for declaration in declarations where declaration.takesAttachedValue {
            for name in declaration.names where argument.hasPrefix(name) && argument.count > name.count {
                return (declaration, String(argument.dropFirst(name.count)))
            }
        }
        return nil
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

    /// The options a worker process needs to run stories as this run
    /// would: those whose declaration forwards them.
    var workerArguments: [String] {
        Self.declarations.flatMap { $0.forward?(self) ?? [] }
    }

    /// How the stories run, in this process or in a worker (which is given
    /// the options it needs, ``workerArguments``).
    var runnerConfiguration: Runner.Configuration {
        Runner.Configuration(
            isStrict: isStrict, isDryRun: isDryRun, isFailFast: isFailFast, retries: retries, stepTimeout: stepTimeout,
            snippetStyle: snippetStyle)
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

    private static func unknown(_ option: String) -> Diagnostic {
        let suggestion = OptionDeclaration.nearest(to: option, in: declarations).map { "did you mean \($0)? " } ?? ""
        return Diagnostic(at: nil, problem: "unknown option \(option)", help: "\(suggestion)see `\(Self.executableName) --help`")
    }

    /// The usage text: its head, each option's lines, its tail.
    static var usage: String {
        usageHead.replacingOccurrences(of: "storyrun", with: executableName)
            + declarations.flatMap(\.usageLines).joined(separator: "\n") + "\n" + usageTail
    }

    /// The name the user runs: `storyrun`, or their own executable's name.
    static let executableName: String = {
        let name = CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "storyrun"
        return name.hasSuffix("xctest") || name.hasPrefix("swift") || name.isEmpty ? "storyrun" : name
    }()

    /// The usage text's head: the run, then each command word.
    private static var usageHead: String {
        (["USAGE: storyrun [options] PATH..."] + commands.map(\.usageLine)).joined(separator: "\n") + "\n" + usageAbout
    }

    private static let usageAbout = """

        Runs the stories in .stories and .feature files (folders are searched
        recursively) and reports, story by story, what passed and what failed.

        OPTIONS:

        """

    private static let usageTail = """

        EXIT STATUS:
          0 every story passed; 1 a story failed (or was undefined or ambiguous
          under --strict); 2 the command line, a story file or a step definition
          was rejected.
        """
}
