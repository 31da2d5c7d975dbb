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
        if line.utf8.last == 0x0D { line = Substring(line.utf8.dropLast()) }
        if line.utf8.allSatisfy({ $0 < 0x80 }) {
            self.init(ascii: line)
        } else {
            self.init(unicode: line)
        }
    }

    /// Reads an ASCII line byte by byte, which is much faster than by
    /// Characters.
    private init(ascii line: Substring) {
        original = line
        let bytes = line.utf8
        let start = bytes.firstIndex { !Self.isBlank($0) } ?? bytes.endIndex
        column = bytes.distance(from: bytes.startIndex, to: start) + 1
        var end = bytes.endIndex
        while end > start, Self.isBlankOrPunctuation(bytes[bytes.index(before: end)]) {
            end = bytes.index(before: end)
        }
        text = line[start..<end]
        let wordEnd = bytes[start..<end].firstIndex(where: Self.isBlank) ?? end
        firstWord = line[start..<wordEnd]
        let restStart = bytes[wordEnd..<end].firstIndex { !Self.isBlank($0) } ?? end
        rest = line[restStart..<end]
    }

    private init(unicode line: Substring) {
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

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    private static func isBlankOrPunctuation(_ byte: UInt8) -> Bool {
        isBlank(byte) || ".,;:!?".utf8.contains(byte)
    }

    var isBlank: Bool { text.isEmpty }
    var isComment: Bool { text.utf8.first == UInt8(ascii: "#") }
    var isTagLine: Bool { text.utf8.first == UInt8(ascii: "@") }

    /// The story's name when this is a `Story` line, else nil.
    var storyName: String? {
        guard firstWord.utf8.count >= 5,
            StepKeyword.equalIgnoringASCIICase(Substring(firstWord.utf8.prefix(5)).utf8, "story".utf8)
        else { return nil }
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
        guard word.utf8.count <= 5,
            let keyword = Self.allCases.first(where: { Self.equalIgnoringASCIICase(word.utf8, $0.rawValue.utf8) })
        else { return nil }
        self = keyword
    }

    /// Compares without allocating: ASCII letters in any case.
    static func equalIgnoringASCIICase(_ word: Substring.UTF8View, _ lowercase: String.UTF8View) -> Bool {
        word.count == lowercase.count
            && zip(word, lowercase).allSatisfy { ($0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0) == $1 }
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
