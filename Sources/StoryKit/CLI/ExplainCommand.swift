/// `storyrun explain "STEP LINE"`: shows every definition that matches a
/// step line, in order, with its arguments and where it was registered.
enum ExplainCommand {
    /// Explains each line; exits 1 when a line matches no definition.
    static func run(lines: [String], registry: StepRegistry, style: TextStyle, output: (String) -> Void) -> ExitStatus {
        var status: ExitStatus = .success
        for (index, line) in lines.enumerated() {
            if index > 0 { output("") }
            let step = Self.step(from: line)
            output("\"\(step.line)\"")
            let matches = registry.matches(step).matches
            if matches.isEmpty {
                status = .storyFailed
                output("  \(style.paint("no step definition matches", .yellow)); this snippet would:")
                output(Snippet(for: step).code().split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            }
            for (rank, match) in matches.enumerated() {
                let verdict = rank == 0 ? style.paint("wins", .green) : style.paint("also matches", .yellow)
                output("  \(rank + 1). \(verdict) \"\(match.definition.pattern)\"  \(style.paint("\(match.definition.location.displayFileAndLine) (\(match.definition.ownerName))", .gray))")
                let arguments = zip(match.capturedTexts, match.definition.parameterNames).map { text, type in
                    "\(text.map { "\"\($0)\"" } ?? "nil") as \(type)"
                }
                if !arguments.isEmpty { output("     arguments: \(arguments.joined(separator: ", "))") }
            }
            if matches.count > 1 {
                output("  help: \(AmbiguityDiagnostic.help(step: step, result: MatchResult(matches: matches)))")
            }
        }
        return status
    }

    /// Reads a step line: its first word is the keyword.
    static func step(from line: String) -> Step {
        let parsed = StoryLine(Substring(line))
        let kind = StepKeyword(parsed.firstWord)?.kind ?? .unknown
        return Step(keyword: String(parsed.firstWord), kind: kind, text: String(parsed.rest), location: SourceLocation(file: "<command line>", line: 1))
    }
}
