/// A command word (`storyrun check …`, `storyrun merge …`), declared once:
/// its names, its line at the head of the usage text, and how it reads the
/// arguments after it. The command-word parser
/// (``Options/parseCommand(_:)``) and the usage text's head are read from
/// the table of these (``Options/commands``); each command runs in a type
/// of its own (``CheckCommand``, ``MergeCommand``…).
///
/// To add a command, add one declaration to that table and its case to
/// ``Options/Command``.
struct CommandDeclaration: Sendable {
    /// What the arguments after the word say.
    enum Reading {
        /// The command, and the arguments left, which are a run's options
        /// (and the config file applies).
        case options(Options.Command, ArraySlice<String>)
        /// The command, which takes no run option.
        case alone(Options.Command)
    }

    /// How the command reads the arguments after its word.
    typealias Read = @Sendable (ArraySlice<String>) throws(Diagnostic) -> Reading

    /// The words that name it: `["check", "lint"]`. The first is the one
    /// the usage text shows.
    var names: [String]
    /// What follows `storyrun` in the usage text: `check PATH...`.
    var synopsis: String
    /// What it does, beside the synopsis; nil when the synopsis says it.
    var help: String?
    /// How it reads the arguments after its word.
    var read: Read

    /// The command's line in the usage text's head: the synopsis in a
    /// column of 26 (or alone), then the help.
    var usageLine: String {
        let head = "       storyrun " + synopsis
        guard let help else { return head }
        return (synopsis.count < 26 ? head.padding(toLength: 16 + 26, withPad: " ", startingAt: 0) : head + "  ") + help
    }
}
