/// The arguments a command gets from the words of its command line, with
/// the placeholders' values in them, and the environment variables that
/// carry the values of the placeholders in a shell script.
///
/// A value is one argument, or part of one, as it is: never split or
/// expanded again. A shell's script (`sh -c '…{order}…'`, also `bash`,
/// `dash`, `zsh`, `ksh` and `-ec`-style options) would read a value
/// written into it as shell code (`42; touch PWNED` runs `touch`), so there
/// each placeholder becomes a reference to an environment variable that
/// holds its value, `"${STORYRUN_VALUE_1}"` (quoted to fit where it
/// stands: in double quotes, in single quotes or in none): the shell
/// reads the value as data, as it reads any variable.
///
/// ```swift
/// let words = try CommandWords.pieces("sh -c 'echo {order}'", environment: [:]) { _ in "1; id" }
/// let command = CommandArguments(words: words)
/// // command.arguments == ["sh", "-c", #"echo '"${STORYRUN_VALUE_1}"'"#]
/// // command.environment == ["STORYRUN_VALUE_1": "1; id"]
/// ```
struct CommandArguments {
    /// The arguments, the program's name first.
    var arguments: [String]
    /// The variables that hold the values of a shell script's placeholders.
    var environment: [String: String] = [:]

    /// The shells whose `-c` script gets its values through variables.
    static let shells: Set<String> = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash"]

    /// The prefix of the variables that carry values into a shell script.
    static let variablePrefix = "STORYRUN_VALUE_"

    /// Makes the arguments of a command line's words.
    init(words: [CommandWord]) {
        let script = Self.scriptIndex(words.map(CommandWord.joined))
        var environment: [String: String] = [:]
        arguments = words.enumerated().map { index, word in
            guard index == script, word.hasValues else { return CommandWord.joined(word) }
            return Self.script(word, environment: &environment)
        }
        self.environment = environment
    }

    /// Where the script of a shell's `-c` is among the words (the first
    /// word after the options, one of which holds `c`); nil for a command
    /// that is not a shell given a script.
    static func scriptIndex(_ words: [String]) -> Int? {
        guard let program = words.first?.split(separator: "/").last, shells.contains(String(program)) else { return nil }
        var takesScript = false
        var index = 1
        while index < words.count {
            let word = words[index]
            guard word.count > 1, word.hasPrefix("-") || word.hasPrefix("+") else { return takesScript ? index : nil }
            if !word.hasPrefix("--") && !word.hasPrefix("++") {
                let letters = word.dropFirst()
                if letters.contains("c") { takesScript = true }
                // -o NAME and -O NAME take the next word.
                if letters.last == "o" || letters.last == "O" { index += 1 }
            }
            index += 1
        }
        return nil
    }

    /// Where a script stands at a point of its text, as the shell reads it.
    private enum Quoting {
        case none, single, double
    }

    /// The script with each value replaced by a reference to a variable
    /// added to `environment`.
    private static func script(_ word: CommandWord, environment: inout [String: String]) -> String {
        var script = ""
        var quoting = Quoting.none
        var isEscaped = false
        for piece in word.pieces {
            switch piece {
            case .text(let text):
                for character in text {
                    script.append(character)
                    if isEscaped {
                        isEscaped = false
                        continue
                    }
                    switch (quoting, character) {
                    case (.none, "\\"), (.double, "\\"): isEscaped = true
                    case (.none, "'"): quoting = .single
                    case (.none, "\""): quoting = .double
                    case (.single, "'"), (.double, "\""): quoting = .none
                    default: break
                    }
                }
            case .value(_, let value):
                let name = variablePrefix + String(environment.count + 1)
                environment[name] = value
                switch quoting {
                case .none: script += "\"${\(name)}\""
                case .double: script += "${\(name)}"
                case .single: script += "'\"${\(name)}\"'"
                }
                isEscaped = false
            }
        }
        return script
    }
}
