/// One line of a `.stories` file, trimmed and split into its first word and
/// the rest.
struct StoryLine {
    /// The line as written, without its line end.
    let original: Substring
    /// The line without surrounding blanks and trailing punctuation.
    let text: Substring
    /// The column where the text starts, from 1.
    let column: Int
    /// The first word, as written.
    let firstWord: Substring
    /// The text after the first word, without leading blanks.
    let rest: Substring

    init(_ raw: Substring) {
        var line = raw
        if line.utf8.last == 0x0D { line = line.dropLast() }
        original = line
        let leading = line.prefix(while: \.isWhitespace)
        column = leading.count + 1
        var trimmed = line[leading.endIndex...]
        while let last = trimmed.last, last.isWhitespace || ".,;:!?".contains(last) {
            trimmed = trimmed.dropLast()
        }
        text = trimmed
        firstWord = trimmed.prefix { !$0.isWhitespace }
        rest = trimmed[firstWord.endIndex...].drop(while: \.isWhitespace)
    }

    var isBlank: Bool { text.isEmpty }
    var isComment: Bool { text.utf8.first == UInt8(ascii: "#") }
    var isTagLine: Bool { text.utf8.first == UInt8(ascii: "@") }

    /// The story's name when this is a `Story` line, else nil.
    var storyName: String? {
        guard firstWord.utf8.count >= 5, firstWord.prefix(5).lowercased() == "story" else { return nil }
        if firstWord.utf8.count == 5 { return String(rest) }
        // "Story:" followed by the name, with or without a blank.
        guard firstWord.dropFirst(5).first == ":" else { return nil }
        return String(text.dropFirst(6).drop(while: \.isWhitespace))
    }
}

/// A step keyword of the `.stories` format.
enum StepKeyword: String, CaseIterable {
    case `as`, given, when, then, and, but

    /// Reads a keyword in any case; nil for any other word.
    init?(_ word: Substring) {
        guard word.utf8.count <= 5 else { return nil }
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
