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
        // An ASCII line is read byte by byte in place, which is much faster
        // than by Characters (and gives the same fields).
        if let fields = line.utf8.withContiguousStorageIfAvailable(Self.asciiFields), let fields {
            let bytes = line.utf8
            func index(_ offset: Int) -> String.Index { bytes.index(bytes.startIndex, offsetBy: offset) }
            self.init(
                original: line, column: fields.start + 1, text: line[index(fields.start)..<index(fields.end)],
                firstWord: line[index(fields.start)..<index(fields.wordEnd)], rest: line[index(fields.restStart)..<index(fields.end)])
        } else {
            self.init(unicode: line)
        }
    }

    /// Where an ASCII line's fields start and end, by byte offset: the
    /// text without surrounding blanks and trailing punctuation, the first
    /// word's end, the rest's start; nil when the line is not ASCII.
    static func asciiFields(of bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int, wordEnd: Int, restStart: Int)? {
        for byte in bytes where byte >= 0x80 { return nil }
        var start = 0
        while start < bytes.count && isBlank(bytes[start]) { start += 1 }
        var end = bytes.count
        while end > start && isBlankOrPunctuation(bytes[end - 1]) { end -= 1 }
        var wordEnd = start
        while wordEnd < end && !isBlank(bytes[wordEnd]) { wordEnd += 1 }
        var restStart = wordEnd
        while restStart < end && isBlank(bytes[restStart]) { restStart += 1 }
        return (start, end, wordEnd, restStart)
    }

    private init(original: Substring, column: Int, text: Substring, firstWord: Substring, rest: Substring) {
        self.original = original
        self.column = column
        self.text = text
        self.firstWord = firstWord
        self.rest = rest
    }

    /// Reads a line by Characters: the way for any line, which ASCII lines
    /// skip (their fields are the same; `StoryLineTests`).
    init(unicode line: Substring) {
        let leading = line.prefix(while: \.isWhitespace)
        var trimmed = line[leading.endIndex...]
        while let last = trimmed.last, last.isWhitespace || ".,;:!?".contains(last) {
            trimmed = trimmed.dropLast()
        }
        let firstWord = trimmed.prefix { !$0.isWhitespace }
        self.init(
            original: line, column: leading.count + 1, text: trimmed, firstWord: firstWord,
            rest: trimmed[firstWord.endIndex...].drop(while: \.isWhitespace))
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    private static func isBlankOrPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x2E, 0x2C, 0x3B, 0x3A, 0x21, 0x3F: true  // . , ; : ! ?
        default: isBlank(byte)
        }
    }

    var isBlank: Bool { text.isEmpty }
    var isComment: Bool { text.utf8.first == UInt8(ascii: "#") }
    var isTagLine: Bool { text.utf8.first == UInt8(ascii: "@") }

    /// Where a Story line's name starts in an ASCII line's `text`, by
    /// byte offset (the name runs to its end), as ``storyName`` reads it;
    /// nil when the line is not a Story line.
    /// - Parameters:
    ///   - word: The first word's bytes.
    ///   - restStart: Where the rest starts in `text`.
    static func storyNameStart(word: UnsafeBufferPointer<UInt8>, restStart: Int, in text: UnsafeBufferPointer<UInt8>) -> Int? {
        guard word.count >= 5, StepKeyword.equalIgnoringASCIICase(UnsafeBufferPointer(rebasing: word[..<5]), "story".utf8) else { return nil }
        if word.count == 5 { return restStart }
        guard word[5] == UInt8(ascii: ":") else { return nil }
        var start = 6
        while start < text.count && isBlank(text[start]) { start += 1 }
        return start
    }

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

    /// Reads a keyword from its bytes in any case; nil for any other word.
    init?(ascii word: UnsafeBufferPointer<UInt8>) {
        guard word.count <= 5, let keyword = Self.allCases.first(where: { Self.equalIgnoringASCIICase(word, $0.rawValue.utf8) })
        else { return nil }
        self = keyword
    }

    /// Compares without allocating: ASCII letters in any case.
    static func equalIgnoringASCIICase(_ word: some Collection<UInt8>, _ lowercase: String.UTF8View) -> Bool {
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
