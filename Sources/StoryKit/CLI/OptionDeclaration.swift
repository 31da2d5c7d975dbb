import Foundation

/// One command-line option, declared once: its names, the value it takes,
/// its help text, its config-file key and what a worker process is given of
/// it. The parser (``Options/apply(_:overridesEarlier:)``), the usage text
/// (``Options/usage``), the config file's keys (``ConfigFile/keys``) and the
/// worker's arguments (``Options/workerArguments``) are all read from the
/// table of these (``Options/declarations``).
///
/// To add an option, add one declaration to that table.
struct OptionDeclaration: Sendable {
    /// How the option reaches ``Options``: given its value (empty for a
    /// flag), it changes the options being parsed.
    typealias Apply = @Sendable (inout Options.Parsing, String) throws(Diagnostic) -> Void

    /// The names, as written on the command line: `["--jobs", "-j"]`. The
    /// first is the long name the config key and messages use. Empty for a
    /// line of the usage text that is not an option (`PATH:LINE`).
    var names: [String]
    /// The name of the value it takes (`N`, `FILE`), or nil for a flag.
    var value: String?
    /// Its lines in the usage text; none hides it (options for storyrun's
    /// own use, such as `--worker`).
    var help: [String]
    /// The key that stands for it in a config file, and how its value
    /// becomes arguments; nil when a config file cannot give it.
    var config: (key: String, kind: ConfigFile.Kind)?
    /// Its arguments for a worker process, from the parsed options; nil
    /// when a worker does not need it.
    var forward: (@Sendable (Options) -> [String])?
    /// Whether its value may follow the name without a space (`-Dkey=value`).
    var takesAttachedValue = false
    /// What it does to the options.
    var apply: Apply
    /// Lines the usage text shows under the help, as written.
    var details: [String] = []

    /// An option.
    init(
        _ names: [String], value: String? = nil, help: [String], config: ConfigFile.Kind? = nil, key: String? = nil,
        forward: (@Sendable (Options) -> [String])? = nil, apply: @escaping Apply
    ) {
        self.names = names
        self.value = value
        self.help = help
        self.config = config.map { (key ?? String(names[0].drop { $0 == "-" }), $0) }
        self.forward = forward
        self.apply = apply
    }

    /// A flag (an option with no value).
    static func flag(
        _ names: [String], help: [String], config: Bool = false, forward isForwarded: (@Sendable (Options) -> Bool)? = nil,
        apply set: @escaping @Sendable (inout Options) -> Void
    ) -> OptionDeclaration {
        let name = names[0]
        var forward: (@Sendable (Options) -> [String])?
        if let isForwarded {
            forward = { options in isForwarded(options) ? [name] : [] }
        }
        let apply: Apply = { (parsing: inout Options.Parsing, _: String) throws(Diagnostic) in set(&parsing.options) }
        return OptionDeclaration(names, help: help, config: config ? .flag : nil, forward: forward, apply: apply)
    }

    /// A line of the usage text that is no option (`PATH:LINE`, `@FILE`).
    static func note(_ label: String, help: [String]) -> OptionDeclaration {
        var note = OptionDeclaration([], help: help) { _, _ in }
        note.label = label
        return note
    }

    /// The same option, whose value may follow its name without a space.
    func attachingValue() -> OptionDeclaration {
        var declaration = self
        declaration.takesAttachedValue = true
        return declaration
    }

    /// What the usage text shows in its first column, when not the names.
    private var label: String?

    /// The option's lines in the usage text: names and value in a column
    /// of 16 (or more, then two spaces), then the help.
    var usageLines: [String] {
        guard let first = help.first else { return [] }
        let shortFirst = names.filter { !$0.hasPrefix("--") } + names.filter { $0.hasPrefix("--") }
        let title = "  " + (label ?? shortFirst.joined(separator: ", ") + (value.map { " \($0)" } ?? ""))
        let head = title.count < 18 ? title.padding(toLength: 18, withPad: " ", startingAt: 0) : title + "  "
        return [head + first] + help.dropFirst().map { String(repeating: " ", count: 18) + $0 } + details
    }

    /// The declaration of each name in `declarations`, `--jobs` and `-j` alike.
    static func byName(_ declarations: [OptionDeclaration]) -> [String: OptionDeclaration] {
        var byName: [String: OptionDeclaration] = [:]
        for declaration in declarations {
            for name in declaration.names { byName[name] = declaration }
        }
        return byName
    }

    /// The declared long name nearest to an unknown option (`--strict`
    /// for `--strikt`), if one is near enough to be what was meant.
    static func nearest(to option: String, in declarations: [OptionDeclaration]) -> String? {
        let known = declarations.flatMap(\.names).filter { $0.hasPrefix("--") && $0.count > 2 }
        let guess = known.min { option.editDistance(to: $0) < option.editDistance(to: $1) }
        return guess.flatMap { option.editDistance(to: $0) <= max(1, option.count / 4) ? $0 : nil }
    }

    /// The problem of an option given with no value (`-D` alone), as
    /// written (`name`).
    func missingValue(_ name: String) -> Diagnostic {
        Diagnostic(at: nil, problem: "\(name) needs a value", help: "write \(name) \(value ?? "")")
    }
}
