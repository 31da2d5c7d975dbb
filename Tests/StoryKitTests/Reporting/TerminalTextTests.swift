import StoryrunSteps
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(3))) struct TerminalTextTests {
    @Test("Control characters in story text are made visible; storyrun's colours and erase stay")
    func visible() {
        #expect(TerminalText.visible("plain text\twith a tab\nand a line") == "plain text\twith a tab\nand a line")
        #expect(TerminalText.visible("clear \u{1B}[2J\u{1B}]0;title\u{07} bell") == "clear ␛[2J␛]0;title␇ bell")
        #expect(TerminalText.visible("del\u{7F} c1\u{9B}31m") == "del␡ c1\\u{9B}31m")
        #expect(TerminalText.visible("\u{1B}[31mred\u{1B}[0m") == "\u{1B}[31mred\u{1B}[0m")
        #expect(TerminalText.visible("\r\u{1B}[2Klive") == "\r\u{1B}[2Klive")
        #expect(TerminalText.visible("a\rb \u{1B}[2K") == "a␍b ␛[2K")
        #expect(TerminalText.visible("über ✓") == "über ✓")
    }

    @Test("A story whose name holds escape sequences cannot drive the terminal of a real run")
    func realRun() async throws {
        let folder = Scratch.folder("terminal")
        let file = folder + "/escape.stories"
        try "Story: Sneaky \u{1B}]0;pwned\u{07}\u{1B}[2J\n  Given an empty basket\n  Then the basket is empty\n"
            .write(toFile: file, atomically: false, encoding: .utf8)
        var lines: [String] = []
        _ = await StoryRun.run(arguments: ["--format", "pretty", file], steps: StoryrunSteps.fixtures, style: .ansi, output: { lines.append(TerminalText.visible($0)) })
        let text = lines.joined(separator: "\n")
        #expect(text.contains("Sneaky ␛]0;pwned␇␛[2J"))
        #expect(!text.contains("\u{07}"))
    }
}
