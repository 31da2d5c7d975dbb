import Foundation
import Testing
@testable import StoryKit

/// What reports read of a story file beyond its stories.
@Suite(.timeLimit(.minutes(10))) struct StoryFileInfoTests {
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

/// A story file as the reports see it when the feed's parse is handed to
/// them (``RecentParses``), and when they read and parse it themselves.
@Suite(.timeLimit(.minutes(10))) struct StoryFileInfoSharedParseTests {
    static let feature = """
        @wip
        Feature: shared
          Background:
            Given a start

          Scenario: plain
            Given a table:
              | a | b\\|c |   |
              | é | x |  y |
            And a note:
              ```json
              {"a": 1}
              ```

          Rule: a rule
            Scenario Outline: rows <n>
              Given <n> things
              Examples:
                | n |
                | 1 |
                | 2 |

        """

    @Test("A feature file the feed parsed gives the reports what reading it again gives")
    func sameAsRead() throws {
        let folder = try Binary.temporaryFolder("shared-parse")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/shared.feature"
        try Self.feature.write(toFile: path, atomically: false, encoding: .utf8)
        let parses = RecentParses()
        let (stories, diagnostics) = StoryLoader.parseFile(at: path, keepingIn: parses)
        #expect(diagnostics.isEmpty && stories.count == 3)
        let shared = StoryFileInfo.Recent(parses: parses).info(path)
        // Taken: the next reader of the file reads it.
        #expect(parses.take(path) == nil)
        let read = StoryFileInfo.Recent().info(path)
        #expect(shared.text == read.text && shared.idCount == read.idCount && shared.feature?.name == "shared")
        for story in stories {
            let (a, b) = (try #require(shared.place(of: story)), try #require(read.place(of: story)))
            #expect(a.pickle.jsonLine == b.pickle.jsonLine)
            #expect(a.scenario.id == b.scenario.id && a.rule?.id == b.rule?.id && a.row?.id == b.row?.id)
            for index in story.steps.indices {
                #expect(shared.isBackgroundStep(index, of: story) == read.isBackgroundStep(index, of: story))
            }
        }
        for line in 1...read.lines.count {
            #expect(shared.cellColumns(line: line) == read.cellColumns(line: line))
        }
    }

    @Test("Table cells begin where the official parser says, in ASCII and other lines alike")
    func cellColumns() throws {
        let folder = try Binary.temporaryFolder("cell-columns")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/cells.feature"
        try Self.feature.write(toFile: path, atomically: false, encoding: .utf8)
        let info = StoryFileInfo.Recent().info(path)
        // `| a | b\|c |   |` and `| é | x |  y |` (columns in scalars).
        #expect(info.cellColumns(line: 8) == [9, 13, 19])
        #expect(info.cellColumns(line: 9) == [9, 13, 18])
        #expect(info.cellColumns(line: 1) == [])
    }
}
