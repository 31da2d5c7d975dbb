/// How a step definition recognises its steps: a regex (Simon's rule) or a
/// Cucumber Expression (Cucumber's rule).
enum StepMatcher: Sendable {
    /// A case-insensitive search in the step line, keyword included, then in
    /// the text after the keyword.
    case regex(Pattern)
    /// A case-sensitive match of the whole text after the keyword; values
    /// come from the parameter types. `fallback` finds the raw texts of the
    /// groups when a value does not convert.
    case expression(CucumberExpression, fallback: Pattern)

    /// The inputs for the closure's parameters, the captured texts (for
    /// reports) and where each group lies in `text` (``GroupSpans``), when
    /// the step matches; a regex's captures serve as its texts as they
    /// are, not copied.
    func match(line: String, text: String, attachment: StepAttachment?) -> (inputs: [StepArgumentInput], texts: [String?], spans: GroupSpans)? {
        switch self {
        case .regex(let pattern):
            if let found = pattern.located(in: line) {
                // Found in the line: placed in the text after the keyword.
                let spans = found.spans.shifted(back: line.utf8.count - text.utf8.count)
                if spans.isEmpty, !found.texts.isEmpty, let inText = pattern.located(in: text) {
                    // A group reaches into the keyword (`(.*) step` captures
                    // "And an"): the closure gets Simon's captures, and the
                    // reports the match in the text, as Cucumber places it.
                    return (Self.inputs(found.texts, attachment: attachment), inText.texts, inText.spans)
                }
                return (Self.inputs(found.texts, attachment: attachment), found.texts, spans)
            }
            guard let found = pattern.located(in: text) else { return nil }
            return (Self.inputs(found.texts, attachment: attachment), found.texts, found.spans)
        case .expression(let expression, let fallback):
            do {
                guard let (arguments, spans) = try expression.located(text) else { return nil }
                let inputs: [StepArgumentInput] = arguments.map { argument in
                    argument.value.map { .value($0, text: argument.text) } ?? .text(argument.text)
                } + [.attachment(attachment)]
                return (inputs, arguments.map(\.text), spans)
            } catch {
                // A value that does not convert (300 for {byte}): the step
                // matches, and its conversion error names the argument.
                guard let found = fallback.located(in: text) else { return nil }
                return (Self.inputs(found.texts, attachment: attachment), found.texts, found.spans)
            }
        }
    }

    /// The nesting of the capture groups (``GroupShape/parents``): empty
    /// when none nests.
    var groupParents: [Int32] {
        switch self {
        case .regex(let pattern): pattern.groupParents
        case .expression(let expression, _): expression.groupParents
        }
    }

    /// The captured texts, then the attachment: one array, made once.
    private static func inputs(_ captures: [String?], attachment: StepAttachment?) -> [StepArgumentInput] {
        var inputs: [StepArgumentInput] = []
        inputs.reserveCapacity(captures.count + 1)
        for capture in captures { inputs.append(.text(capture)) }
        inputs.append(.attachment(attachment))
        return inputs
    }

    /// Words any text this matcher accepts holds, for the index.
    var requiredWords: [String] {
        RequiredWords.of(regex: regexSource)
    }

    /// The hashes and lengths of ``requiredWords``, made without the words.
    var requiredWordHashes: [(hash: UInt64, length: Int)] {
        RequiredWords.hashes(ofRegex: regexSource)
    }

    private var regexSource: String {
        switch self {
        case .regex(let pattern): pattern.source
        case .expression(let expression, _): expression.regexPattern
        }
    }
}
