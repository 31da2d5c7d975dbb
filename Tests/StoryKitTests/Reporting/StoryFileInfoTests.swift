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

/// What the reports keep of the story files while the run goes on: only
/// what some report still needs, so that memory stays flat.
@Suite(.timeLimit(.minutes(10))) struct StoryFileInfoKeptTests {
    @Test("A reader that passes files without reading them (JUnit) holds none that the other readers are done with")
    func passingReaderHoldsNothing() throws {
        let folder = try Binary.temporaryFolder("passing-reader")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = (0..<12).map { "\(folder)/\($0).feature" }
        for path in paths { try "Feature: f\n  Scenario: s\n    Given a\n".write(toFile: path, atomically: false, encoding: .utf8) }
        let recent = StoryFileInfo.Recent()
        let (reads, passes) = (recent.reader(), recent.reader())
        let first = reads.info(paths[0])
        for path in paths {
            _ = reads.info(path)
            passes.passed(path)
        }
        // Both readers are past the first file, and more than the few
        // always kept came after it: it was let go, and is read again.
        #expect(reads.info(paths[0]) !== first)
        // The newest files stay.
        let last = reads.info(paths[11])
        #expect(reads.info(paths[11]) === last)
    }

    @Test("A reader that passes a file no reader has read yet is past every file read so far")
    func passedAhead() throws {
        let folder = try Binary.temporaryFolder("passed-ahead")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = (0..<8).map { "\(folder)/\($0).feature" }
        for path in paths { try "Feature: f\n  Scenario: s\n    Given a\n".write(toFile: path, atomically: false, encoding: .utf8) }
        let recent = StoryFileInfo.Recent()
        let (reads, passes) = (recent.reader(), recent.reader())
        let first = reads.info(paths[0])
        for path in paths {
            passes.passed(path)
            _ = reads.info(path)
        }
        #expect(reads.info(paths[0]) !== first)
    }
}

/// The feed keeps only the files some report reads.
@Suite(.timeLimit(.minutes(10))) struct RecentParsesRowFilesTests {
    @Test("When JUnit is the only report that reads story files, only files with an outline's rows are kept")
    func onlyRowFiles() throws {
        let folder = try Binary.temporaryFolder("row-files")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = folder + "/plain.feature", rows = folder + "/rows.feature", stories = folder + "/plain.stories"
        try "Feature: p\n  Background:\n    Given a\n  Scenario: s\n    Given b\n".write(toFile: plain, atomically: false, encoding: .utf8)
        try StoryFileInfoSharedParseTests.feature.write(toFile: rows, atomically: false, encoding: .utf8)
        try "Story: s\n  Given a\n".write(toFile: stories, atomically: false, encoding: .utf8)
        let onlyRows = RecentParses(keepsOnlyRowFiles: true)
        for path in [plain, rows, stories] { _ = StoryLoader.parseFile(at: path, keepingIn: onlyRows) }
        #expect(onlyRows.take(plain) == nil)
        #expect(onlyRows.take(stories) == nil)
        #expect(onlyRows.take(rows)?.document?.feature?.name == "shared")
        let all = RecentParses()
        for path in [plain, rows, stories] { _ = StoryLoader.parseFile(at: path, keepingIn: all) }
        #expect(all.take(plain) != nil && all.take(stories) != nil && all.take(rows) != nil)
    }

    @Test("JUnit alone reads only row files; with another report that reads story files, every file is kept")
    func whichReports() {
        #expect(ReportFormat.readsOnlyRowFiles([.junit]))
        #expect(ReportFormat.readsOnlyRowFiles([.junit, .rerun, .summary]))
        #expect(!ReportFormat.readsOnlyRowFiles([.junit, .html]))
        #expect(!ReportFormat.readsOnlyRowFiles([.messages]))
    }

    @Test("A row of an outline is one; a scenario, with or without a background, is not")
    func outlineRows() throws {
        let (stories, _) = StoryLoader.parse(StoryFileInfoSharedParseTests.feature, path: "x.feature")
        #expect(stories.map(\.isOutlineRow) == [false, true, true])
    }
}
