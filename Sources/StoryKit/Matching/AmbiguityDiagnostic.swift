/// Builds the warning (or, under `--strict`, the error) for a step that more
/// than one definition matches, with a fix that has been checked to work.
enum AmbiguityDiagnostic {
    static func make(step: Step, result: MatchResult, isStrict: Bool) -> Diagnostic {
        let notes = result.matches.enumerated().map { index, match in
            Diagnostic.Note(
                location: match.definition.location,
                message: "\(index == 0 ? "wins" : "also matches"): \"\(match.definition.pattern)\"")
        }
        return Diagnostic(
            isStrict ? .error : .warning, at: step.location,
            problem: "\(result.matches.count) step definitions match \"\(step.line)\"; the first registered wins",
            help: help(step: step, result: result),
            notes: notes)
    }

    /// Advice that names, for each losing definition, the anchored pattern
    /// that stops it matching the step, when anchoring can.
    static func help(step: Step, result: MatchResult) -> String {
        var fixes: [String] = []
        var unfixable: [String] = []
        for loser in result.matches.dropFirst() {
            let pattern = loser.definition.pattern
            let candidate = anchored(pattern)
            if loser.definition.syntax == .regex, candidate != pattern, !matches(candidate, step) {
                fixes.append("\"\(candidate)\" (\(loser.definition.location.displayFileAndLine))")
            } else {
                unfixable.append("\"\(pattern)\"")
            }
        }
        var advice: [String] = []
        if !fixes.isEmpty {
            advice.append("if the first should win alone, anchor the other: \(fixes.joined(separator: ", "))")
        }
        if !unfixable.isEmpty {
            let first = result.matches[0].definition
            let winner = anchored(first.pattern)
            let hint = first.syntax == .regex && winner != first.pattern && !matches(winner, step)
                ? "; if it should win instead, anchor the first: \"\(winner)\""
                : "; make the patterns differ in their literal text"
            advice.append("anchoring \(unfixable.joined(separator: ", ")) would not stop it matching\(hint)")
        }
        return advice.joined(separator: "; ")
    }

    /// The pattern with `^` and `$` added where they are missing.
    static func anchored(_ pattern: String) -> String {
        (pattern.hasPrefix("^") ? "" : "^") + pattern + (pattern.hasSuffix("$") ? "" : "$")
    }

    private static func matches(_ pattern: String, _ step: Step) -> Bool {
        guard let compiled = try? Pattern(regex: pattern) else { return false }
        return compiled.captures(in: step.line) != nil || compiled.captures(in: step.text) != nil
    }
}
