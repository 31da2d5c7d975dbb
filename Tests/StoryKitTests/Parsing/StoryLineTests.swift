import Testing

@testable import StoryKit

/// A `.stories` line read byte by byte (ASCII) has the fields it has read by
/// Characters.
@Suite(.timeLimit(.minutes(10))) struct StoryLineTests {
    static let lines: [String] = [
        "", " ", "\t\t", "Story: A basket", "Story:A basket", "  Given an empty basket", "\tWhen I add 3 apples.",
        "Then the basket holds 3 apples!?", "And  two   blanks\t\tinside ,.;:!?", "# a comment", "@tag @other",
        "...", " , ", "But\u{0B}vertical tab\u{0C}form feed", "As a customer:", "x", "Given  ", "story is not a keyword here",
        "Then \"quoted text.\"", "When I add 1 pear\r",
    ]

    @Test("An ASCII line has the same fields read in place as read by Characters", arguments: lines)
    func sameFields(line: String) {
        var raw = Substring(line)
        let byBytes = StoryLine(raw)
        if raw.utf8.last == 0x0D { raw = Substring(raw.utf8.dropLast()) }
        let byCharacters = StoryLine(unicode: raw)
        #expect(byBytes.original == byCharacters.original)
        #expect(byBytes.column == byCharacters.column)
        #expect(byBytes.text == byCharacters.text)
        #expect(byBytes.firstWord == byCharacters.firstWord)
        #expect(byBytes.rest == byCharacters.rest)
        #expect(byBytes.storyName == byCharacters.storyName)
    }

    @Test("A non-ASCII line is read by Characters: its column counts Characters")
    func unicodeLine() {
        let line = StoryLine("\u{00A0} Given café crème.")
        #expect(line.column == 3)
        #expect(line.text == "Given café crème")
        #expect(line.firstWord == "Given")
        #expect(line.rest == "café crème")
    }
}
