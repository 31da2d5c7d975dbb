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
    var htmlPath: String?
    var jsonPath: String?
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
            case "--html": htmlPath = try Self.value(for: argument, from: &remaining)
            case "--json": jsonPath = try Self.value(for: argument, from: &remaining)
            case "--dry-run": isDryRun = true
            case "--strict": isStrict = true
            case "-v", "--verbose": isVerbose = true
            case "--no-color": isColorDisabled = true
            case "--": paths += remaining; remaining = []
            default:
                if argument.hasPrefix("-") && argument.count > 1 {
                    throw Self.unknown(argument)
                }
                paths.append(argument)
            }
        }
        if command == .run && paths.isEmpty {
            throw Diagnostic(at: nil, problem: "no story files or folders given", help: "run `storyrun Stories/`, or see `storyrun --help`")
        }
    }

    init() {}

    private static let known = ["--help", "--version", "--html", "--json", "--dry-run", "--strict", "--verbose", "--no-color"]

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
    static let usage = """
        USAGE: storyrun [options] PATH...

        Runs the stories in .stories and .feature files (folders are searched
        recursively) and reports, story by story, what passed and what failed.

        OPTIONS:
          --html FILE     also write a self-contained HTML report
          --json FILE     also write Cucumber JSON
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
