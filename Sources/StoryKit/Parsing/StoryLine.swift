/// One line of a `.stories` file, trimmed and split into its first word and
/// the rest.
struct StoryLine {
    /// The line as written, without its line end.
    let original: String
    /// The line without surrounding blanks and trailing punctuation.
    let text: String
    /// The column where the text starts, from 1.
    let column: Int

    init(_ raw: Substring) {
        var line = raw
        if line.hasSuffix("\r") { line = line.dropLast() }
        original = String(line)
        let leading = line.prefix(while: \.isWhitespace)
        column = leading.count + 1
        var trimmed = line.dropFirst(leading.count)
        while let last = trimmed.last, last.isWhitespace || ".,;:!?".contains(last) {
            trimmed = trimmed.dropLast()
        }
        text = String(trimmed)
    }

    var isBlank: Bool { text.isEmpty }
    var isComment: Bool { text.hasPrefix("#") }
    var isTagLine: Bool { text.hasPrefix("@") }

    /// The first word, as written.
    var firstWord: String { String(text.prefix { !$0.isWhitespace }) }

    /// The text after the first word, trimmed.
    var rest: String {
        String(text.dropFirst(firstWord.count).drop(while: \.isWhitespace))
    }

    /// The story's name when this is a `Story` line, else nil.
    var storyName: String? {
        let lowered = text.lowercased()
        if lowered.hasPrefix("story:") {
            return String(text.dropFirst(6).drop(while: \.isWhitespace))
        }
        guard firstWord.lowercased() == "story" else { return nil }
        return rest
    }
}

/// A step keyword of the `.stories` format.
enum StepKeyword: String, CaseIterable {
    case `as`, given, when, then, and, but

    /// Reads a keyword in any case; nil for any other word.
    init?(_ word: String) {
        self.init(rawValue: word.lowercased())
    }

    /// The kind of step the keyword starts; nil for `And` and `But`, which
    /// keep the kind before them.
    var kind: Step.Kind? {
        switch self {
        case .as: .role
        case .given: .context
        case .when: .action
        case .then: .outcome
        case .and, .but: nil
        }
    }

    /// The keyword as it is usually written.
    var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}
