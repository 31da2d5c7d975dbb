import Testing
@testable import StoryKit

/// What reports read of a story file beyond its stories.
@Suite struct StoryFileInfoTests {
    @Test("A file's lines are the ones splitting its Characters at newlines makes, with line ends of every kind")
    func lines() {
        let texts = [
            "", "a", "a\n", "\n\n", "a\r\nb", "a\n\rb", "a\r\r\nb\r", "a\u{0B}b\u{0C}c\u{85}d\u{2028}e\u{2029}f",
            "| a |\n\u{301}| b |", "é\r\n\r\nx\n", "  |\u{301} c\n  # note\n", "\u{2028}\u{301}x",
        ]
        for text in texts {
            #expect(StoryFileInfo.lines(of: text) == text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline), "\(Array(text.unicodeScalars))")
        }
    }
}
