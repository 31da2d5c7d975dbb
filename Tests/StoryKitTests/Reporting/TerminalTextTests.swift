import Foundation
import StoryrunSteps
import Testing
@testable import StoryKit

@Suite(.timeLimit(.minutes(10))) struct TerminalTextTests {
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

    /// Before, any `ESC[…m` passed as if it were one of storyrun's colours:
    /// a story's conceal (`ESC[8m`) hid every later line, even without colour.
    @Test("A story's own SGR sequences show, storyrun's colours stay; without colour no escape passes")
    func ownColoursOnly() {
        #expect(TerminalText.visible("a \u{1B}[8mhidden") == "a ␛[8mhidden")
        #expect(TerminalText.visible("\u{1B}[30;40mblack\u{1B}[5m") == "␛[30;40mblack␛[5m")
        #expect(TerminalText.visible("\u{1B}[1m\u{1B}[90mgray\u{1B}[0m") == "\u{1B}[1m\u{1B}[90mgray\u{1B}[0m")
        #expect(TerminalText.visible("\u{1B}[31mred\u{1B}[0m", allowsColour: false) == "␛[31mred␛[0m")
        #expect(TerminalText.visible("story \r\u{1B}[2K") == "story ␍␛[2K")
    }

    /// Before, `ESC[8m` in a story's name, its step and its command's
    /// output reached the terminal with `NO_COLOR` and `--no-color`.
    @Test("With NO_COLOR and --no-color no escape sequence from a story, a step or its output reaches the output", .timeLimit(.minutes(10)))
    func noColourRun() async throws {
        let folder = try Binary.temporaryFolder("terminal-escapes")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let story = """
            Feature: Hidden \u{1B}[8m from here
              Scenario: conceal \u{1B}[8m
                When I run `printf 'out \\033[8m concealed'`
                Then stdout contains "nothing \u{1B}[8m"

            """
        try story.write(toFile: folder + "/s.feature", atomically: false, encoding: .utf8)
        for (arguments, environment) in [(["s.feature"], ["NO_COLOR": "1"]), (["--no-color", "s.feature"], [:])] {
            let outcome = try await Binary.run(
                arguments, in: folder, timeout: 60, environment: environment.merging(["STORYRUN_FIXTURE_STEPS": "steplibs"]) { $1 })
            #expect(outcome.status == 1, "\(outcome.output)")
            #expect(!outcome.output.contains("\u{1B}"), "\(outcome.output.debugDescription)")
            #expect(outcome.output.contains("Hidden ␛[8m from here") || outcome.output.contains("conceal ␛[8m"), "\(outcome.output)")
            #expect(outcome.output.contains("Stories: 0 passed, 1 failed"), "\(outcome.output)")
        }
    }
}
