import Foundation

/// `storyrun explain "STEP LINE"`: shows every definition that matches a
/// step line, in order, with its arguments and where it was registered.
enum ExplainCommand {
    /// Explains each line; exits 1 when a line matches no definition.
    ///
    /// A line is read as a run reads it: a `.stories` file drops trailing
    /// punctuation (`is:` → `is`), a `.feature` file keeps it. When the two
    /// readings differ, both are explained, and the line fails only when
    /// neither matches.
    static func run(lines: [String], registry: StepRegistry, style: TextStyle, output: (String) -> Void) -> ExitStatus {
        var status: ExitStatus = .success
        for (index, line) in lines.enumerated() {
            if index > 0 { output("") }
            let stories = Self.step(from: line)
            let feature = Self.featureStep(from: line)
            guard feature.text != stories.text else {
                if !explain(stories, heading: "\"\(stories.line)\"", registry: registry, style: style, output: output) {
                    status = .storyFailed
                }
                continue
            }
            let inFeature = explain(feature, heading: "\"\(feature.line)\" (as a .feature file reads it)", registry: registry, style: style, output: output)
            output("")
            let inStories = explain(stories, heading: "\"\(stories.line)\" (as a .stories file reads it: trailing punctuation is dropped)", registry: registry, style: style, output: output)
            if !inFeature && !inStories { status = .storyFailed }
        }
        return status
    }

    /// Explains one reading of a line; false when no definition matches it.
    private static func explain(
        _ step: Step, heading: String, registry: StepRegistry, style: TextStyle, output: (String) -> Void
    ) -> Bool {
        output(heading)
        let matches = registry.matches(step).matches
        if matches.isEmpty {
            output("  \(style.paint("no step definition matches", .yellow)); this snippet would:")
            output(Snippet.suggested(for: step, in: registry).code().split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
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
        return !matches.isEmpty
    }

    /// Reads a step line as a `.feature` file does: the text after the
    /// keyword, as written.
    static func featureStep(from line: String) -> Step {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let keyword = trimmed.prefix { !$0.isWhitespace }
        let text = trimmed.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces)
        let kind = StepKeyword(keyword)?.kind ?? .unknown
        return Step(keyword: String(keyword), kind: kind, text: text, location: SourceLocation(file: "<command line>", line: 1))
    }

    /// Reads a step line: its first word is the keyword.
    static func step(from line: String) -> Step {
        let parsed = StoryLine(Substring(line))
        let kind = StepKeyword(parsed.firstWord)?.kind ?? .unknown
        return Step(keyword: String(parsed.firstWord), kind: kind, text: String(parsed.rest), location: SourceLocation(file: "<command line>", line: 1))
    }
}
