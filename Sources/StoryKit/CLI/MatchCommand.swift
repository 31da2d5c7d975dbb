/// `storyrun match --regex PATTERN TEXT` and `storyrun match --expression
/// EXPRESSION TEXT`: try a pattern on a step before writing it.
///
/// Prints whether it matches and, on the last line, the converted arguments
/// as JSON: `{"matches":true,"args":[3,"red"]}`.
enum MatchCommand {
    /// What to try.
    enum Syntax: String {
        case regex = "--regex"
        case expression = "--expression"
    }

    /// Reads `--regex PATTERN TEXT` or `--expression EXPRESSION TEXT`.
    static func parse(_ arguments: ArraySlice<String>) throws(Diagnostic) -> (Syntax, String, String) {
        guard arguments.count == 3, let syntax = Syntax(rawValue: arguments[arguments.startIndex]) else {
            throw Diagnostic(at: nil, problem: "match needs --regex PATTERN TEXT or --expression EXPRESSION TEXT",
                             help: "write \(Options.executableName) match --expression \"I have {int} {word}\" \"I have 3 red\"")
        }
        return (syntax, arguments[arguments.startIndex + 1], arguments[arguments.startIndex + 2])
    }

    /// Tries the pattern; exits 0 when it matches, 1 when not, 2 when the
    /// pattern is not valid.
    static func run(_ syntax: Syntax, pattern: String, text: String, output: (String) -> Void) -> ExitStatus {
        switch syntax {
        case .regex: regex(pattern, text: text, output: output)
        case .expression: expression(pattern, text: text, output: output)
        }
    }

    /// A regex as step definitions use it: a case-insensitive search; group
    /// texts that a built-in parameter type's regex describes (`(\d+)`) get
    /// that type's value, as Cucumber does, and the others stay strings.
    private static func regex(_ source: String, text: String, output: (String) -> Void) -> ExitStatus {
        let pattern: Pattern
        do {
            pattern = try Pattern(regex: source)
        } catch {
            output(Diagnostic(at: nil, problem: "regex \"\(source)\" does not compile: \(error.message)").rendered())
            return .inputError
        }
        guard let captures = pattern.captures(in: text) else { return report(nil, output: output) }
        let typed = (try? RegularExpression("(?i)" + source).match(text)) ?? nil
        let values: [String] =
            if let typed, typed.count == captures.count { typed.map { CucumberArgument.jsonValue($0.value ?? $0.text) } }
            else { captures.map { $0.map(CucumberArgument.jsonString) ?? "null" } }
        return report(zip(captures, values).map { ($0.0, $0.1) }, output: output)
    }

    private static func expression(_ source: String, text: String, output: (String) -> Void) -> ExitStatus {
        let expression: CucumberExpression
        do {
            expression = try CucumberExpression(source)
        } catch {
            output("storyrun: error: \(error.message)")
            return .inputError
        }
        do {
            guard let arguments = try expression.match(text) else { return report(nil, output: output) }
            return report(arguments.map { ($0.text, CucumberArgument.jsonValue($0.value)) }, output: output)
        } catch {
            output("storyrun: error: \(error.message)")
            return .storyFailed
        }
    }

    private static func report(_ arguments: [(text: String?, json: String)]?, output: (String) -> Void) -> ExitStatus {
        guard let arguments else {
            output("no match")
            output(#"{"matches":false,"args":[]}"#)
            return .storyFailed
        }
        output("matches, with \(arguments.count) argument\(arguments.count == 1 ? "" : "s")")
        for (index, argument) in arguments.enumerated() {
            output("  \(index + 1). \(argument.text.map { "\"\($0)\"" } ?? "nil") → \(argument.json)")
        }
        output(#"{"matches":true,"args":["# + arguments.map(\.json).joined(separator: ",") + "]}")
        return .success
    }
}
