/// Every command word, declared once (see ``CommandDeclaration``), in the
/// order the usage text lists them.
extension Options {
    /// The commands, in usage order.
    static let commands: [CommandDeclaration] = [
        CommandDeclaration(names: ["check", "lint"], synopsis: "check PATH...", help: "(or --check) match, run nothing; list problems") {
            .options(.check, $0)
        },
        CommandDeclaration(names: ["explain"], synopsis: "explain \"STEP LINE\"...", help: "which definitions match a step line, and why") {
            .options(.explain, $0)
        },
        CommandDeclaration(names: ["match"], synopsis: "match --regex PATTERN TEXT | --expression EXPRESSION TEXT") {
            arguments throws(Diagnostic) in
            let (syntax, pattern, text) = try MatchCommand.parse(arguments)
            return .alone(.match(syntax, pattern: pattern, text: text))
        },
        CommandDeclaration(names: ["merge"], synopsis: "merge IN.ndjson... [--strict] [--html FILE] [--junit FILE] [--json FILE]") {
            // Merge reads its own options (``MergeCommand/parse(_:)``).
            .alone(.merge(Array($0)))
        },
        CommandDeclaration(names: ["definitions"], synopsis: "definitions [--json]", help: "every step definition and parameter type") {
            arguments throws(Diagnostic) in .alone(try DefinitionsCommand.parse(arguments))
        },
        CommandDeclaration(names: ["lsp"], synopsis: "lsp", help: "a language server for editors (stdio)") { _ in
            // Editors pass options such as --stdio; stdio is the only transport.
            .alone(.lsp)
        },
    ]

    /// The declaration of each command word, `check` and `lint` alike.
    static let commandsByName: [String: CommandDeclaration] = {
        var byName: [String: CommandDeclaration] = [:]
        for command in commands {
            for name in command.names { byName[name] = command }
        }
        return byName
    }()

    /// Reads a leading command word (`check`, `explain`, `lsp`…) as its
    /// declaration says; returns the arguments left to apply, or nil when
    /// the command takes no options.
    mutating func parseCommand(_ arguments: [String]) throws(Diagnostic) -> ArraySlice<String>? {
        guard let word = arguments.first, let declaration = Self.commandsByName[word] else { return arguments[...] }
        switch try declaration.read(arguments.dropFirst()) {
        case .options(let command, let remaining):
            self.command = command
            return remaining
        case .alone(let command):
            self.command = command
            return nil
        }
    }
}
